// @earendil-works/pi-ai/providers/all: the built-in model catalog. pi-go's
// catalog lives in Go, so these read it through __host when the runtime
// provides it and report an empty catalog otherwise.
"use strict";

const host = typeof __host === "object" && __host !== null ? __host : {};

function fromHost(name, fallback) {
  return function (...args) {
    if (typeof host[name] === "function") return host[name](...args);
    return fallback();
  };
}

Object.defineProperty(exports, "__esModule", { value: true });
exports.builtinModels = fromHost("builtinModels", () => []);
exports.builtinProviders = fromHost("builtinProviders", () => []);
exports.getAllBuiltinModels = fromHost("getAllBuiltinModels", () => []);
exports.getBuiltinModels = fromHost("getBuiltinModels", () => []);
exports.getBuiltinModel = fromHost("getBuiltinModel", () => undefined);
exports.getBuiltinProviders = fromHost("getBuiltinProviders", () => []);
exports.getBuiltinClassifierModel = fromHost("getBuiltinClassifierModel", () => undefined);
exports.getBuiltinClassifierModels = fromHost("getBuiltinClassifierModels", () => []);
exports.getBuiltinImageModel = fromHost("getBuiltinImageModel", () => undefined);
exports.getBuiltinImageModels = fromHost("getBuiltinImageModels", () => []);
exports.getBuiltinModelDataGeneratedAt = fromHost("getBuiltinModelDataGeneratedAt", () => undefined);
exports.radiusProvider = fromHost("radiusProvider", () => {
  throw new Error("@earendil-works/pi-ai/providers/all: radiusProvider is not supported in pi-go");
});
