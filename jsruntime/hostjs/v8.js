// node:v8: heap numbers from the Go runtime (goja's heap is Go's), the
// rest of V8's surface throws ERR_NOT_SUPPORTED instead of answering
// with numbers or bytes that would mean something else here.
"use strict";
const ns = (what) => function () { const e = new Error("v8." + what + " is not supported in extensions by this runtime (goja, not V8)"); e.code = "ERR_NOT_SUPPORTED"; throw e; };
class NotSupported { constructor() { ns(this.constructor.name)(); } }
class Serializer extends NotSupported {}
class Deserializer extends NotSupported {}
class DefaultSerializer extends Serializer {}
class DefaultDeserializer extends Deserializer {}
class GCProfiler extends NotSupported {}
module.exports = {
  // A stable tag: there is no code cache whose format could change.
  cachedDataVersionTag: () => 0x70690001,
  getHeapSnapshot: ns("getHeapSnapshot"),
  getHeapStatistics: () => __host.heapStatistics(),
  getHeapSpaceStatistics: () => __host.heapSpaceStatistics(),
  getHeapCodeStatistics: ns("getHeapCodeStatistics"),
  getCppHeapStatistics: ns("getCppHeapStatistics"),
  setFlagsFromString: ns("setFlagsFromString"),
  Serializer, Deserializer, DefaultSerializer, DefaultDeserializer,
  deserialize: ns("deserialize"),
  // Without NODE_V8_COVERAGE, Node's own takeCoverage and stopCoverage do
  // nothing either.
  takeCoverage() {}, stopCoverage() {},
  serialize: ns("serialize"),
  writeHeapSnapshot: ns("writeHeapSnapshot"),
  promiseHooks: { onInit: ns("promiseHooks.onInit"), onSettled: ns("promiseHooks.onSettled"), onBefore: ns("promiseHooks.onBefore"), onAfter: ns("promiseHooks.onAfter"), createHook: ns("promiseHooks.createHook") },
  queryObjects: ns("queryObjects"),
  startupSnapshot: { isBuildingSnapshot: () => false, addSerializeCallback: ns("startupSnapshot.addSerializeCallback"), addDeserializeCallback: ns("startupSnapshot.addDeserializeCallback"), setDeserializeMainFunction: ns("startupSnapshot.setDeserializeMainFunction") },
  setHeapSnapshotNearHeapLimit: ns("setHeapSnapshotNearHeapLimit"),
  GCProfiler,
  isStringOneByteRepresentation: (s) => { if (typeof s !== "string") { const e = new TypeError('The "content" argument must be of type string.'); e.code = "ERR_INVALID_ARG_TYPE"; throw e; } return !/[^\0-\xff]/.test(s); },
};
