// typebox: a JSON Schema builder with the same output as TypeBox 1.x.
//
// Every builder returns a plain JSON Schema object. TypeBox tags its schemas
// with "~kind", "~optional", "~readonly" and "~unsafe" markers; they are
// defined as non-enumerable properties here too, so JSON.stringify prints only
// the schema (which reaches the model and the session file) while code that
// inspects the markers (Type.IsOptional, Object's required list) still works.
"use strict";

const KIND = "~kind";
const OPTIONAL = "~optional";
const READONLY = "~readonly";
const UNSAFE = "~unsafe";
const MARKERS = [KIND, OPTIONAL, READONLY, UNSAFE];

const StringPattern = "^.*$";
const IntegerPattern = "^-?(?:0|[1-9][0-9]*)$";
const NumberPattern = "^-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?$";
const NeverPattern = "(?!)";
const BigIntPattern = "^-?(?:0|[1-9][0-9]*)n$";

function mark(schema, key, value) {
  Object.defineProperty(schema, key, { value: value, enumerable: false, writable: true, configurable: true });
  return schema;
}

// copyOptions returns a shallow copy of the caller's options so later edits to
// the options object do not leak into the schema.
function copyOptions(options) {
  const out = {};
  if (options && typeof options === "object") {
    for (const key of Object.keys(options)) out[key] = options[key];
  }
  return out;
}

// create assembles a schema: the builder's own keys first, then the caller's
// options, which is the key order TypeBox produces.
function create(kind, fields, options) {
  const schema = {};
  for (const key of Object.keys(fields)) schema[key] = fields[key];
  const opts = copyOptions(options);
  for (const key of Object.keys(opts)) schema[key] = opts[key];
  return mark(schema, KIND, kind);
}

// cloneSchema copies a schema (deeply for plain data) and keeps its markers.
function cloneSchema(schema) {
  if (Array.isArray(schema)) return schema.map(cloneSchema);
  if (schema === null || typeof schema !== "object") return schema;
  const out = {};
  for (const key of Object.keys(schema)) out[key] = cloneSchema(schema[key]);
  for (const key of MARKERS) {
    if (Object.prototype.hasOwnProperty.call(schema, key)) mark(out, key, schema[key]);
  }
  return out;
}

function kindOf(schema) {
  return schema !== null && typeof schema === "object" ? schema[KIND] : undefined;
}

function isOptionalSchema(schema) {
  return schema !== null && typeof schema === "object" && schema[OPTIONAL] === true;
}

// ---------------------------------------------------------------- primitives

function Any(options) { return create("Any", {}, options); }
function Unknown(options) { return create("Unknown", {}, options); }
function Never(options) { return create("Never", { not: {} }, options); }
function String(options) { return create("String", { type: "string" }, options); }
function Number(options) { return create("Number", { type: "number" }, options); }
function Integer(options) { return create("Integer", { type: "integer" }, options); }
function Boolean(options) { return create("Boolean", { type: "boolean" }, options); }
function Null(options) { return create("Null", { type: "null" }, options); }
function Undefined(options) { return create("Undefined", { type: "undefined" }, options); }
function Void(options) { return create("Void", { type: "void" }, options); }
function BigInt(options) { return create("BigInt", { type: "bigint" }, options); }
function Symbol_(options) { return create("Symbol", { type: "symbol" }, options); }

function literalType(value) {
  switch (typeof value) {
    case "string": return "string";
    case "number": return "number";
    case "boolean": return "boolean";
    case "bigint": return "bigint";
    default: throw new Error("Literal: invalid literal value " + globalThis.String(value));
  }
}

function Literal(value, options) {
  return create("Literal", { type: literalType(value), const: value }, options);
}

// ---------------------------------------------------------------- modifiers

function Optional(schema, enable) {
  const out = cloneSchema(schema);
  if (enable === false) {
    delete out[OPTIONAL];
    return out;
  }
  return mark(out, OPTIONAL, true);
}

function Readonly(schema, enable) {
  const out = cloneSchema(schema);
  if (enable === false) {
    delete out[READONLY];
    return out;
  }
  return mark(out, READONLY, true);
}

function ReadonlyOptional(schema) { return Readonly(Optional(schema)); }

function Unsafe(schema) {
  const out = {};
  if (schema && typeof schema === "object") {
    for (const key of Object.keys(schema)) out[key] = schema[key];
  }
  return mark(out, UNSAFE, null);
}

// ---------------------------------------------------------------- objects

function objectFields(properties) {
  const props = {};
  const required = [];
  for (const key of Object.keys(properties || {})) {
    props[key] = properties[key];
    if (!isOptionalSchema(properties[key])) required.push(key);
  }
  const fields = { type: "object" };
  if (required.length > 0) fields.required = required;
  fields.properties = props;
  return fields;
}

function Object_(properties, options) {
  return create("Object", objectFields(properties), options);
}

function propertiesOf(schema) {
  if (kindOf(schema) === "Intersect" && Array.isArray(schema.allOf)) {
    const merged = {};
    for (const part of schema.allOf) Object.assign(merged, propertiesOf(part));
    return merged;
  }
  if (kindOf(schema) === "Union" && Array.isArray(schema.anyOf)) {
    // Only the keys every variant shares survive, as in TypeScript.
    const parts = schema.anyOf.map(propertiesOf);
    if (parts.length === 0) return {};
    const merged = {};
    for (const key of Object.keys(parts[0])) {
      if (parts.every((p) => Object.prototype.hasOwnProperty.call(p, key))) merged[key] = parts[0][key];
    }
    return merged;
  }
  return (schema && schema.properties) || {};
}

function Partial(schema, options) {
  const props = {};
  const source = propertiesOf(schema);
  for (const key of Object.keys(source)) props[key] = Optional(source[key]);
  return create("Object", objectFields(props), options);
}

function Required(schema, options) {
  const props = {};
  const source = propertiesOf(schema);
  for (const key of Object.keys(source)) props[key] = Optional(source[key], false);
  return create("Object", objectFields(props), options);
}

// keysOf turns Pick/Omit selectors (array, literal, union of literals, KeyOf)
// into a list of property names.
function keysOf(selector) {
  if (Array.isArray(selector)) return selector.map((k) => globalThis.String(k));
  if (typeof selector === "string" || typeof selector === "number") return [globalThis.String(selector)];
  if (selector && typeof selector === "object") {
    if (Object.prototype.hasOwnProperty.call(selector, "const")) return [globalThis.String(selector.const)];
    if (Array.isArray(selector.anyOf)) return selector.anyOf.flatMap(keysOf);
    if (Array.isArray(selector.enum)) return selector.enum.map((k) => globalThis.String(k));
  }
  return [];
}

function Pick(schema, selector, options) {
  const wanted = new Set(keysOf(selector));
  const source = propertiesOf(schema);
  const props = {};
  for (const key of Object.keys(source)) if (wanted.has(key)) props[key] = source[key];
  return create("Object", objectFields(props), options);
}

function Omit(schema, selector, options) {
  const dropped = new Set(keysOf(selector));
  const source = propertiesOf(schema);
  const props = {};
  for (const key of Object.keys(source)) if (!dropped.has(key)) props[key] = source[key];
  return create("Object", objectFields(props), options);
}

function KeyOf(schema, options) {
  const keys = Object.keys(propertiesOf(schema));
  return create("Union", { anyOf: keys.map((k) => Literal(k)) }, options);
}

// Composite merges object schemas into one object schema. It is TypeBox 0.x
// API that extensions written against @sinclair/typebox still call.
function Composite(schemas, options) {
  const props = {};
  for (const s of schemas || []) Object.assign(props, propertiesOf(s));
  return create("Object", objectFields(props), options);
}

// ---------------------------------------------------------------- combinators

function Union(schemas, options) {
  return create("Union", { anyOf: (schemas || []).slice() }, options);
}

function Intersect(schemas, options) {
  return create("Intersect", { allOf: (schemas || []).slice() }, options);
}

function Array_(items, options) {
  return create("Array", { type: "array", items: items }, options);
}

function Tuple(items, options) {
  const list = (items || []).slice();
  return create("Tuple", { type: "array", additionalItems: false, items: list, minItems: list.length }, options);
}

function isNumericKey(key) {
  return /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/.test(key);
}

// Enum accepts an array of values or an object; TypeScript numeric enums carry
// reverse mappings ("0" -> "A") that are not members and are dropped.
function Enum(values, options) {
  let list;
  if (Array.isArray(values)) {
    list = values.slice();
  } else {
    const obj = values || {};
    list = [];
    for (const key of Object.keys(obj)) {
      const value = obj[key];
      if (isNumericKey(key) && typeof value === "string" && obj[value] === globalThis.Number(key)) continue;
      if (!list.includes(value)) list.push(value);
    }
  }
  return create("Enum", { enum: list }, options);
}

function Record(key, value, options) {
  const kind = kindOf(key);
  if (kind === "Literal" || kind === "Union" || kind === "Enum") {
    const props = {};
    for (const k of keysOf(key)) props[k] = value;
    return create("Object", objectFields(props), options);
  }
  let pattern = StringPattern;
  if (kind === "Integer") pattern = IntegerPattern;
  else if (kind === "Number") pattern = NumberPattern;
  else if (kind === "String" && typeof key.pattern === "string") pattern = key.pattern;
  else if (kind === "TemplateLiteral" && typeof key.pattern === "string") pattern = key.pattern;
  const patternProperties = {};
  patternProperties[pattern] = value;
  return create("Record", { type: "object", patternProperties: patternProperties }, options);
}

function Ref(ref, options) {
  const target = typeof ref === "string" ? ref : ref && ref.$id;
  return create("Ref", { $ref: target }, options);
}

function Function_(parameters, returns, options) {
  return create("Function", { type: "function", parameters: (parameters || []).slice(), returnType: returns }, options);
}

function Constructor(parameters, returns, options) {
  return create("Constructor", { type: "constructor", parameters: (parameters || []).slice(), instanceType: returns }, options);
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// TemplateLiteral supports the string form with ${string}, ${number},
// ${integer} and ${boolean} holes, which covers what extensions write.
function TemplateLiteral(template, options) {
  let pattern = "^";
  if (typeof template === "string") {
    const re = /\$\{(string|number|integer|boolean|bigint)\}/g;
    let last = 0;
    let m;
    while ((m = re.exec(template)) !== null) {
      pattern += escapeRegExp(template.slice(last, m.index));
      pattern += { string: ".*", number: "-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?", integer: "-?(?:0|[1-9][0-9]*)", boolean: "(?:true|false)", bigint: "-?(?:0|[1-9][0-9]*)" }[m[1]];
      last = m.index + m[0].length;
    }
    pattern += escapeRegExp(template.slice(last));
  } else if (Array.isArray(template)) {
    for (const part of template) {
      if (kindOf(part) === "Literal") pattern += escapeRegExp(globalThis.String(part.const));
      else if (kindOf(part) === "Number") pattern += "-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?";
      else if (kindOf(part) === "Integer") pattern += "-?(?:0|[1-9][0-9]*)";
      else if (kindOf(part) === "Boolean") pattern += "(?:true|false)";
      else pattern += ".*";
    }
  }
  pattern += "$";
  return create("TemplateLiteral", { type: "string", pattern: pattern }, options);
}

let recursiveCounter = 0;

// Recursive is TypeBox 0.x API: the callback receives a reference to the
// schema being defined.
function Recursive(callback, options) {
  const opts = copyOptions(options);
  const id = opts.$id !== undefined ? opts.$id : "T" + recursiveCounter++;
  const self = create("This", { $ref: id }, {});
  const body = callback(self);
  const out = { $id: id };
  for (const key of Object.keys(body || {})) out[key] = body[key];
  for (const key of Object.keys(opts)) if (key !== "$id") out[key] = opts[key];
  return mark(out, KIND, kindOf(body) || "Unknown");
}

function This(options) { return create("This", { $ref: "#" }, options); }

function Index(schema, selector, options) {
  const props = propertiesOf(schema);
  const keys = keysOf(selector);
  const picked = keys.filter((k) => props[k] !== undefined).map((k) => Optional(props[k], false));
  if (picked.length === 1) return picked[0];
  return Union(picked, options);
}

function Exclude(union, excluded) {
  const drop = JSON.stringify(excluded);
  const list = (union && union.anyOf) || [];
  const excludedList = (excluded && excluded.anyOf) ? excluded.anyOf.map((s) => JSON.stringify(s)) : [drop];
  return Union(list.filter((s) => !excludedList.includes(JSON.stringify(s))));
}

function Extract(union, extracted) {
  const list = (union && union.anyOf) || [];
  const kept = (extracted && extracted.anyOf) ? extracted.anyOf.map((s) => JSON.stringify(s)) : [JSON.stringify(extracted)];
  return Union(list.filter((s) => kept.includes(JSON.stringify(s))));
}

function unsupported(name) {
  return function () {
    throw new Error("typebox: Type." + name + " is not supported in pi-go");
  };
}

// ---------------------------------------------------------------- guards

function isKind(kind) {
  return function (value) { return kindOf(value) === kind; };
}

function IsSchema(value) {
  return value !== null && typeof value === "object" && (kindOf(value) !== undefined || Object.prototype.hasOwnProperty.call(value, UNSAFE));
}

function IsKind(value, kind) { return kindOf(value) === kind; }
function IsOptional(value) { return isOptionalSchema(value); }
function IsReadonly(value) { return value !== null && typeof value === "object" && value[READONLY] === true; }
function IsUnsafe(value) { return value !== null && typeof value === "object" && Object.prototype.hasOwnProperty.call(value, UNSAFE); }

// ---------------------------------------------------------------- exports

const Type = {
  Any: Any, Unknown: Unknown, Never: Never, String: String, Number: Number, Integer: Integer,
  Boolean: Boolean, Null: Null, Undefined: Undefined, Void: Void, BigInt: BigInt, Symbol: Symbol_,
  Literal: Literal, Optional: Optional, Readonly: Readonly, ReadonlyOptional: ReadonlyOptional, Unsafe: Unsafe,
  Object: Object_, Partial: Partial, Required: Required, Pick: Pick, Omit: Omit, KeyOf: KeyOf,
  Composite: Composite, Union: Union, Intersect: Intersect, Array: Array_, Tuple: Tuple, Enum: Enum,
  Record: Record, Ref: Ref, Function: Function_, Constructor: Constructor, TemplateLiteral: TemplateLiteral,
  Recursive: Recursive, This: This, Index: Index, Exclude: Exclude, Extract: Extract,
  IsSchema: IsSchema, IsKind: IsKind, IsOptional: IsOptional, IsReadonly: IsReadonly, IsUnsafe: IsUnsafe,
};

for (const kind of ["Any", "Array", "BigInt", "Boolean", "Call", "Codec", "Constructor", "Cyclic", "Dependent",
  "Enum", "Function", "Generic", "Identifier", "Immutable", "Infer", "Integer", "Intersect", "Literal", "Never",
  "Null", "Number", "Object", "Parameter", "Record", "Ref", "Refine", "Rest", "String", "Symbol", "TemplateLiteral",
  "This", "Tuple", "Undefined", "Union", "Unknown", "Void"]) {
  Type["Is" + kind] = isKind(kind);
}

Type.IsEnumValue = function (value) { return typeof value === "string" || typeof value === "number"; };
Type.ExtendsResult = {};

// Names TypeBox 1.x has that pi-go does not model; they exist so that
// importing them works, and fail clearly only when called.
for (const name of ["Call", "Capitalize", "Codec", "Conditional", "ConstructorParameters", "Cyclic", "Decode",
  "DecodeBuilder", "Dependent", "Encode", "EncodeBuilder", "Evaluate", "Extends", "Generic", "Identifier",
  "Immutable", "Infer", "InstanceType", "Instantiate", "Interface", "Lowercase", "Mapped", "Module",
  "NonNullable", "Parameter", "Parameters", "ReadonlyObject", "ReadonlyType", "Refine", "Rest", "ReturnType",
  "Script", "Uncapitalize", "Uppercase", "With", "RecordKey", "RecordPattern", "RecordValue"]) {
  if (!Type[name]) Type[name] = unsupported(name);
}

Object.defineProperty(exports, "__esModule", { value: true });
for (const name of Object.keys(Type)) exports[name] = Type[name];
exports.Type = Type;
exports.default = Type;
exports.StringPattern = StringPattern;
exports.IntegerPattern = IntegerPattern;
exports.NumberPattern = NumberPattern;
exports.NeverPattern = NeverPattern;
exports.BigIntPattern = BigIntPattern;
exports.StringKey = "^.*$";
exports.IntegerKey = IntegerPattern;
exports.NumberKey = NumberPattern;
// Kind / OptionalKind mirror TypeBox 0.x's marker exports for code that reads
// schema[Kind] directly.
exports.Kind = KIND;
exports.OptionalKind = OPTIONAL;
exports.ReadonlyKind = READONLY;
