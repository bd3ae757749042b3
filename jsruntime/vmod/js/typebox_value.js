// typebox/value: validation and value operations over the JSON Schemas that
// the typebox module builds (and hand-written JSON Schema of the same subset).
//
// Errors carry TypeBox 1.x's shape {keyword, schemaPath, instancePath, params,
// message} and are reported in TypeBox's keyword order: type, then the
// object, array, string and number keywords (each only for a value of that
// kind), then $ref, const, enum, not, allOf, anyOf, oneOf.
"use strict";

const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isPlainSchema = (s) => s !== null && typeof s === "object" && !Array.isArray(s);

function message(keyword, params) {
  switch (keyword) {
    case "additionalProperties": return "must not have additional properties";
    case "anyOf": return "must match a schema in anyOf";
    case "boolean": return "schema is false";
    case "const": return "must be equal to constant";
    case "contains": return "must contain at least 1 valid item";
    case "enum": return "must be equal to one of the allowed values";
    case "exclusiveMaximum":
    case "exclusiveMinimum":
    case "maximum":
    case "minimum": return "must be " + params.comparison + " " + params.limit;
    case "format": return "must match format \"" + params.format + "\"";
    case "maxItems": return "must not have more than " + params.limit + " items";
    case "maxLength": return "must not have more than " + params.limit + " characters";
    case "maxProperties": return "must not have more than " + params.limit + " properties";
    case "minItems": return "must not have fewer than " + params.limit + " items";
    case "minLength": return "must not have fewer than " + params.limit + " characters";
    case "minProperties": return "must not have fewer than " + params.limit + " properties";
    case "multipleOf": return "must be multiple of " + params.multipleOf;
    case "not": return "must not be valid";
    case "oneOf": return "must match exactly one schema in oneOf";
    case "pattern": return "must match pattern \"" + params.pattern + "\"";
    case "propertyNames": return "property names " + params.propertyNames.join(", ") + " are invalid";
    case "required": return "must have required properties " + params.requiredProperties.join(", ");
    case "type": return typeof params.type === "string" ? "must be " + params.type : "must be either " + params.type.join(" or ");
    case "uniqueItems": return "must not have duplicate items";
    default: return "an unknown validation error occurred";
  }
}

// TypeBox joins paths with the raw key (no JSON Pointer escaping of "/" or
// "~"), so the same is done here to produce identical paths.
function escapePointer(key) {
  return String(key);
}

function typeMatches(type, value) {
  switch (type) {
    case "string": return typeof value === "string";
    case "number": return typeof value === "number" && isFinite(value);
    case "integer": return typeof value === "number" && Number.isInteger(value);
    case "boolean": return typeof value === "boolean";
    case "null": return value === null;
    case "object": return isObject(value);
    case "array": return Array.isArray(value);
    case "undefined": return value === undefined;
    case "void": return value === undefined || value === null;
    case "bigint": return typeof value === "bigint";
    case "symbol": return typeof value === "symbol";
    case "function": return typeof value === "function";
    case "constructor": return typeof value === "function";
    default: return true;
  }
}

// Equal is structural equality over JSON-like values.
function Equal(a, b) {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "number") return a === b || (a !== a && b !== b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!Equal(a[i], b[i])) return false;
    return true;
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    for (const k of ka) if (!hasOwn(b, k) || !Equal(a[k], b[k])) return false;
    return true;
  }
  return false;
}

// Format patterns are kept as sources and compiled on first use: goja
// compiles a regular expression literal while parsing the module, and
// some of these (hostname's bounded repeats under /i) cost tens of
// milliseconds, paid by every extension that imports typebox/value.
const formatSources = {
  email: ["^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$", "i"],
  uuid: ["^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", "i"],
  "date-time": ["^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:[Zz]|[+-]\\d{2}:?\\d{2})$", ""],
  date: ["^\\d{4}-\\d{2}-\\d{2}$", ""],
  time: ["^\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:[Zz]|[+-]\\d{2}:?\\d{2})?$", ""],
  uri: ["^[a-z][a-z0-9+.-]*:[^\\s]*$", "i"],
  url: ["^[a-z][a-z0-9+.-]*:\\/\\/[^\\s]*$", "i"],
  ipv4: ["^(?:(?:25[0-5]|2[0-4]\\d|1?\\d?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1?\\d?\\d)$", ""],
  hostname: ["^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$", "i"],
};
const formatCache = {};
function formatPattern(name) {
  if (!hasOwn(formatSources, name)) return undefined;
  if (!formatCache[name]) formatCache[name] = new RegExp(formatSources[name][0], formatSources[name][1]);
  return formatCache[name];
}

// Validator walks a schema. When errors is null it stops at the first
// failure (Check); otherwise it collects every error (Errors).
class Validator {
  constructor(root, refs) {
    this.root = root;
    this.refs = new Map();
    for (const r of refs || []) if (r && r.$id !== undefined) this.refs.set(r.$id, r);
    if (root && root.$id !== undefined) this.refs.set(root.$id, root);
  }

  resolve(ref) {
    if (this.refs.has(ref)) return this.refs.get(ref);
    if (ref === "#") return this.root;
    if (typeof ref === "string" && ref.startsWith("#/")) {
      let node = this.root;
      for (const part of ref.slice(2).split("/")) {
        if (node === undefined || node === null) break;
        node = node[part.replace(/~1/g, "/").replace(/~0/g, "~")];
      }
      if (node !== undefined) return node;
    }
    throw new Error("typebox: unable to resolve $ref \"" + ref + "\"");
  }

  push(errors, keyword, schemaPath, instancePath, params) {
    if (errors) errors.push({ keyword: keyword, schemaPath: schemaPath, instancePath: instancePath, params: params, message: message(keyword, params) });
    return false;
  }

  // check reports whether value matches schema, appending errors when asked.
  check(schema, value, schemaPath, instancePath, errors) {
    if (schema === true) return true;
    if (schema === false) return this.push(errors, "boolean", schemaPath, instancePath, {});
    if (!isPlainSchema(schema)) return true;
    const collect = errors !== null;
    let ok = true;
    const fail = () => { ok = false; return !collect; };

    if (hasOwn(schema, "type")) {
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      if (!types.some((t) => typeMatches(t, value))) {
        this.push(errors, "type", schemaPath, instancePath, { type: schema.type });
        if (fail()) return false;
      }
    }
    if (isObject(value)) {
      if (!this.checkObject(schema, value, schemaPath, instancePath, errors)) { if (fail()) return false; }
    }
    if (Array.isArray(value)) {
      if (!this.checkArray(schema, value, schemaPath, instancePath, errors)) { if (fail()) return false; }
    }
    if (typeof value === "string") {
      if (!this.checkString(schema, value, schemaPath, instancePath, errors)) { if (fail()) return false; }
    }
    if (typeof value === "number" || typeof value === "bigint") {
      if (!this.checkNumber(schema, value, schemaPath, instancePath, errors)) { if (fail()) return false; }
    }
    if (hasOwn(schema, "$ref")) {
      const target = this.resolve(schema.$ref);
      if (!this.check(target, value, schemaPath, instancePath, errors)) { if (fail()) return false; }
    }
    if (hasOwn(schema, "const") && !Equal(schema.const, value)) {
      this.push(errors, "const", schemaPath, instancePath, { allowedValue: schema.const });
      if (fail()) return false;
    }
    if (Array.isArray(schema.enum) && !schema.enum.some((e) => Equal(e, value))) {
      this.push(errors, "enum", schemaPath, instancePath, { allowedValues: schema.enum });
      if (fail()) return false;
    }
    if (hasOwn(schema, "not") && this.check(schema.not, value, schemaPath + "/not", instancePath, null)) {
      this.push(errors, "not", schemaPath, instancePath, {});
      if (fail()) return false;
    }
    if (Array.isArray(schema.allOf)) {
      for (let i = 0; i < schema.allOf.length; i++) {
        if (!this.check(schema.allOf[i], value, schemaPath + "/allOf/" + i, instancePath, errors)) { if (fail()) return false; }
      }
    }
    if (Array.isArray(schema.anyOf)) {
      const branchErrors = collect ? [] : null;
      let matched = false;
      for (let i = 0; i < schema.anyOf.length && !matched; i++) {
        const local = collect ? [] : null;
        if (this.check(schema.anyOf[i], value, schemaPath + "/anyOf/" + i, instancePath, local)) matched = true;
        else if (collect) branchErrors.push(...local);
      }
      if (!matched) {
        if (collect) errors.push(...branchErrors);
        this.push(errors, "anyOf", schemaPath, instancePath, {});
        if (fail()) return false;
      }
    }
    if (Array.isArray(schema.oneOf)) {
      const branchErrors = collect ? [] : null;
      const passing = [];
      for (let i = 0; i < schema.oneOf.length; i++) {
        const local = collect ? [] : null;
        if (this.check(schema.oneOf[i], value, schemaPath + "/oneOf/" + i, instancePath, local)) passing.push(i);
        else if (collect) branchErrors.push(...local);
      }
      if (passing.length !== 1) {
        if (collect && passing.length === 0) errors.push(...branchErrors);
        this.push(errors, "oneOf", schemaPath, instancePath, { passingSchemas: passing });
        if (fail()) return false;
      }
    }
    return ok;
  }

  checkObject(schema, value, schemaPath, instancePath, errors) {
    const collect = errors !== null;
    let ok = true;
    if (Array.isArray(schema.required)) {
      const missing = schema.required.filter((k) => !hasOwn(value, k));
      if (missing.length > 0) {
        ok = this.push(errors, "required", schemaPath, instancePath, { requiredProperties: missing });
        if (!collect) return false;
      }
    }
    const props = isPlainSchema(schema.properties) ? schema.properties : {};
    const patterns = isPlainSchema(schema.patternProperties) ? Object.keys(schema.patternProperties) : [];
    if (hasOwn(schema, "additionalProperties")) {
      const extra = Object.keys(value).filter((k) => !hasOwn(props, k) && !patterns.some((p) => new RegExp(p).test(k)));
      if (schema.additionalProperties === false) {
        // TypeBox reports each extra key against the false schema first,
        // then one additionalProperties error listing them all.
        for (const k of extra) this.push(errors, "boolean", schemaPath + "/additionalProperties", instancePath + "/" + k, {});
        if (extra.length > 0) {
          ok = this.push(errors, "additionalProperties", schemaPath, instancePath, { additionalProperties: extra });
          if (!collect) return false;
        }
      } else if (isPlainSchema(schema.additionalProperties)) {
        for (const k of extra) {
          if (!this.check(schema.additionalProperties, value[k], schemaPath + "/additionalProperties", instancePath + "/" + escapePointer(k), errors)) {
            ok = false;
            if (!collect) return false;
          }
        }
      }
    }
    for (const p of patterns) {
      const re = new RegExp(p);
      for (const k of Object.keys(value)) {
        if (!re.test(k)) continue;
        if (!this.check(schema.patternProperties[p], value[k], schemaPath + "/patternProperties/" + escapePointer(p), instancePath + "/" + escapePointer(k), errors)) {
          ok = false;
          if (!collect) return false;
        }
      }
    }
    for (const k of Object.keys(props)) {
      if (!hasOwn(value, k)) continue;
      if (!this.check(props[k], value[k], schemaPath + "/properties/" + escapePointer(k), instancePath + "/" + escapePointer(k), errors)) {
        ok = false;
        if (!collect) return false;
      }
    }
    if (hasOwn(schema, "propertyNames")) {
      const bad = Object.keys(value).filter((k) => !this.check(schema.propertyNames, k, schemaPath + "/propertyNames", instancePath, null));
      if (bad.length > 0) {
        ok = this.push(errors, "propertyNames", schemaPath, instancePath, { propertyNames: bad });
        if (!collect) return false;
      }
    }
    const count = Object.keys(value).length;
    if (typeof schema.minProperties === "number" && count < schema.minProperties) {
      ok = this.push(errors, "minProperties", schemaPath, instancePath, { limit: schema.minProperties });
      if (!collect) return false;
    }
    if (typeof schema.maxProperties === "number" && count > schema.maxProperties) {
      ok = this.push(errors, "maxProperties", schemaPath, instancePath, { limit: schema.maxProperties });
      if (!collect) return false;
    }
    return ok;
  }

  checkArray(schema, value, schemaPath, instancePath, errors) {
    const collect = errors !== null;
    let ok = true;
    const tupleItems = Array.isArray(schema.items) ? schema.items : Array.isArray(schema.prefixItems) ? schema.prefixItems : null;
    if (tupleItems && schema.additionalItems === false && value.length > tupleItems.length) {
      // Each extra item fails the false schema; there is no summary error.
      for (let i = tupleItems.length; i < value.length; i++) this.push(errors, "boolean", schemaPath + "/additionalItems", instancePath + "/" + i, {});
      ok = false;
      if (!collect) return false;
    }
    if (hasOwn(schema, "contains") && !value.some((v, i) => this.check(schema.contains, v, schemaPath + "/contains", instancePath + "/" + i, null))) {
      ok = this.push(errors, "contains", schemaPath, instancePath, { minContains: 1 });
      if (!collect) return false;
    }
    if (isPlainSchema(schema.items) || typeof schema.items === "boolean") {
      const start = Array.isArray(schema.prefixItems) ? schema.prefixItems.length : 0;
      for (let i = start; i < value.length; i++) {
        if (!this.check(schema.items, value[i], schemaPath + "/items", instancePath + "/" + i, errors)) {
          ok = false;
          if (!collect) return false;
        }
      }
    } else if (tupleItems) {
      const key = Array.isArray(schema.items) ? "/items/" : "/prefixItems/";
      for (let i = 0; i < tupleItems.length && i < value.length; i++) {
        if (!this.check(tupleItems[i], value[i], schemaPath + key + i, instancePath + "/" + i, errors)) {
          ok = false;
          if (!collect) return false;
        }
      }
    }
    if (typeof schema.maxItems === "number" && value.length > schema.maxItems) {
      ok = this.push(errors, "maxItems", schemaPath, instancePath, { limit: schema.maxItems });
      if (!collect) return false;
    }
    if (typeof schema.minItems === "number" && value.length < schema.minItems) {
      ok = this.push(errors, "minItems", schemaPath, instancePath, { limit: schema.minItems });
      if (!collect) return false;
    }
    if (schema.uniqueItems === true) {
      let dup = false;
      for (let i = 0; i < value.length && !dup; i++) {
        for (let j = i + 1; j < value.length && !dup; j++) if (Equal(value[i], value[j])) dup = true;
      }
      if (dup) {
        ok = this.push(errors, "uniqueItems", schemaPath, instancePath, {});
        if (!collect) return false;
      }
    }
    return ok;
  }

  checkString(schema, value, schemaPath, instancePath, errors) {
    const collect = errors !== null;
    let ok = true;
    // Length counts code points, as JSON Schema specifies.
    const length = Array.from(value).length;
    if (typeof schema.maxLength === "number" && length > schema.maxLength) {
      ok = this.push(errors, "maxLength", schemaPath, instancePath, { limit: schema.maxLength });
      if (!collect) return false;
    }
    if (typeof schema.minLength === "number" && length < schema.minLength) {
      ok = this.push(errors, "minLength", schemaPath, instancePath, { limit: schema.minLength });
      if (!collect) return false;
    }
    if (typeof schema.format === "string" && formatPattern(schema.format) && !formatPattern(schema.format).test(value)) {
      ok = this.push(errors, "format", schemaPath, instancePath, { format: schema.format });
      if (!collect) return false;
    }
    if (typeof schema.pattern === "string" && !new RegExp(schema.pattern).test(value)) {
      ok = this.push(errors, "pattern", schemaPath, instancePath, { pattern: schema.pattern });
      if (!collect) return false;
    }
    return ok;
  }

  checkNumber(schema, value, schemaPath, instancePath, errors) {
    const collect = errors !== null;
    let ok = true;
    const rules = [
      ["exclusiveMaximum", "<", (v, l) => v < l],
      ["exclusiveMinimum", ">", (v, l) => v > l],
      ["maximum", "<=", (v, l) => v <= l],
      ["minimum", ">=", (v, l) => v >= l],
    ];
    for (const [keyword, comparison, test] of rules) {
      if (typeof schema[keyword] === "number" && !test(value, schema[keyword])) {
        ok = this.push(errors, keyword, schemaPath, instancePath, { comparison: comparison, limit: schema[keyword] });
        if (!collect) return false;
      }
    }
    if (typeof schema.multipleOf === "number") {
      const q = value / schema.multipleOf;
      if (Math.abs(q - Math.round(q)) > 1e-9) {
        ok = this.push(errors, "multipleOf", schemaPath, instancePath, { multipleOf: schema.multipleOf });
        if (!collect) return false;
      }
    }
    return ok;
  }
}

// Arguments follow TypeBox: (schema, value) or (context, schema, value),
// where context holds referenced schemas (an object of definitions, or an
// array of schemas with $id as in TypeBox 0.x).
function splitArgs(args) {
  if (args.length >= 3) {
    const a0 = args[0];
    const b1 = args[1];
    // 0.x ordered the arguments (schema, references[], value).
    if (Array.isArray(b1)) return { schema: a0, refs: b1, value: args[2] };
    const refs = Array.isArray(a0) ? a0 : contextRefs(a0);
    return { schema: b1, refs: refs, value: args[2] };
  }
  return { schema: args[0], refs: [], value: args[1] };
}

function contextRefs(context) {
  const out = [];
  for (const key of Object.keys(context || {})) {
    const s = context[key];
    if (s && typeof s === "object") out.push(s.$id !== undefined ? s : Object.assign({ $id: key }, s));
  }
  return out;
}

function Check(...args) {
  const a = splitArgs(args);
  return new Validator(a.schema, a.refs).check(a.schema, a.value, "#", "", null);
}

function Errors(...args) {
  const a = splitArgs(args);
  const errors = [];
  new Validator(a.schema, a.refs).check(a.schema, a.value, "#", "", errors);
  return errors;
}

function Clone(value) {
  if (Array.isArray(value)) return value.map(Clone);
  if (value instanceof Date) return new Date(value.getTime());
  if (value !== null && typeof value === "object") {
    const out = {};
    for (const k of Object.keys(value)) out[k] = Clone(value[k]);
    return out;
  }
  return value;
}

function resolveFor(schema, refs, root) {
  if (isPlainSchema(schema) && hasOwn(schema, "$ref")) {
    try { return new Validator(root, refs).resolve(schema.$ref); } catch (e) { return schema; }
  }
  return schema;
}

// Create builds a value that satisfies schema: defaults where given, else the
// simplest value of the schema's type; optional properties are left out.
function createValue(schema, refs, root) {
  schema = resolveFor(schema, refs, root);
  if (!isPlainSchema(schema)) return undefined;
  if (hasOwn(schema, "default")) return Clone(schema.default);
  // TypeBox creates values from its own type kinds; a schema without one
  // (hand-written JSON Schema, StringEnum) creates undefined.
  if (schema["~kind"] === undefined) return undefined;
  if (hasOwn(schema, "const")) return Clone(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return Clone(schema.enum[0]);
  if (Array.isArray(schema.anyOf) && schema.anyOf.length > 0) return createValue(schema.anyOf[0], refs, root);
  if (Array.isArray(schema.oneOf) && schema.oneOf.length > 0) return createValue(schema.oneOf[0], refs, root);
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    const parts = schema.allOf.map((s) => createValue(s, refs, root));
    if (parts.every(isObject)) return Object.assign({}, ...parts);
    return parts[0];
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string": return typeof schema.minLength === "number" ? " ".repeat(schema.minLength) : "";
    case "number":
    case "integer": return typeof schema.minimum === "number" ? schema.minimum : 0;
    case "boolean": return false;
    case "null": return null;
    case "array":
      if (Array.isArray(schema.items)) return schema.items.map((s) => createValue(s, refs, root));
      if (typeof schema.minItems === "number" && schema.minItems > 0) {
        return Array.from({ length: schema.minItems }, () => createValue(schema.items, refs, root));
      }
      return [];
    case "object": {
      const out = {};
      const required = new Set(schema.required || []);
      const props = schema.properties || {};
      for (const k of Object.keys(props)) {
        if (required.has(k)) out[k] = createValue(props[k], refs, root);
      }
      return out;
    }
    case "bigint": return globalThis.BigInt ? globalThis.BigInt(0) : 0;
    default: return undefined;
  }
}

function Create(...args) {
  const schema = args[0];
  const refs = args.length > 1 ? args[1] : [];
  return createValue(schema, refs, schema);
}

// Default fills in missing values from "default" annotations, recursing into
// objects and arrays. It mutates and returns value, as TypeBox does.
function defaultValue(schema, value, refs, root) {
  schema = resolveFor(schema, refs, root);
  if (!isPlainSchema(schema)) return value;
  // A default that is itself an object still gets its members' defaults.
  if (value === undefined && hasOwn(schema, "default")) value = Clone(schema.default);
  if (isObject(value)) {
    const props = isPlainSchema(schema.properties) ? schema.properties : {};
    for (const k of Object.keys(props)) {
      const next = defaultValue(props[k], value[k], refs, root);
      if (next !== undefined) value[k] = next;
    }
    if (isPlainSchema(schema.additionalProperties)) {
      for (const k of Object.keys(value)) if (!hasOwn(props, k)) value[k] = defaultValue(schema.additionalProperties, value[k], refs, root);
    }
    if (isPlainSchema(schema.patternProperties)) {
      for (const p of Object.keys(schema.patternProperties)) {
        const re = new RegExp(p);
        for (const k of Object.keys(value)) if (re.test(k)) value[k] = defaultValue(schema.patternProperties[p], value[k], refs, root);
      }
    }
  }
  if (Array.isArray(value)) {
    if (isPlainSchema(schema.items)) {
      for (let i = 0; i < value.length; i++) value[i] = defaultValue(schema.items, value[i], refs, root);
    } else if (Array.isArray(schema.items)) {
      for (let i = 0; i < value.length && i < schema.items.length; i++) value[i] = defaultValue(schema.items[i], value[i], refs, root);
    }
  }
  if (Array.isArray(schema.allOf)) {
    for (const s of schema.allOf) value = defaultValue(s, value, refs, root);
  }
  if (Array.isArray(schema.anyOf) && value !== undefined) {
    const v = new Validator(root, refs);
    for (const s of schema.anyOf) {
      const candidate = defaultValue(s, Clone(value), refs, root);
      if (v.check(s, candidate, "#", "", null)) return candidate;
    }
  }
  return value;
}

function Default(...args) {
  const a = splitArgs(args);
  return defaultValue(a.schema, a.value, a.refs, a.schema);
}

// Convert coerces scalars toward the schema's types ("3" -> 3, "true" -> true,
// 5 -> "5", x -> [x]); values that cannot be converted are left unchanged.
function convertScalar(type, value) {
  switch (type) {
    case "number":
      if (typeof value === "string" && value.trim() !== "" && !isNaN(Number(value))) return Number(value);
      if (value === true || value === "true") return 1;
      if (value === false || value === "false") return 0;
      return value;
    case "integer":
      if (typeof value === "string" && value.trim() !== "" && !isNaN(Number(value))) return Math.trunc(Number(value));
      if (value === true || value === "true") return 1;
      if (value === false || value === "false") return 0;
      if (typeof value === "number" && isFinite(value)) return Math.trunc(value);
      return value;
    case "boolean":
      if (value === "true" || value === "1" || value === 1) return true;
      if (value === "false" || value === "0" || value === 0) return false;
      return value;
    case "string":
      if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
      return value;
    case "null":
      if (value === "null") return null;
      return value;
    default:
      return value;
  }
}

function convertValue(schema, value, refs, root) {
  schema = resolveFor(schema, refs, root);
  if (!isPlainSchema(schema)) return value;
  const v = new Validator(root, refs);
  if (Array.isArray(schema.anyOf)) {
    if (schema.anyOf.some((s) => v.check(s, value, "#", "", null))) return value;
    for (const s of schema.anyOf) {
      const candidate = convertValue(s, Clone(value), refs, root);
      if (v.check(s, candidate, "#", "", null)) return candidate;
    }
    return value;
  }
  if (Array.isArray(schema.allOf)) {
    for (const s of schema.allOf) value = convertValue(s, value, refs, root);
    return value;
  }
  if (hasOwn(schema, "const") && !hasOwn(schema, "type")) {
    return convertScalar(typeof schema.const, value);
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === "array") {
    if (!Array.isArray(value)) value = value === undefined ? value : [value];
    if (Array.isArray(value)) {
      if (isPlainSchema(schema.items)) return value.map((x) => convertValue(schema.items, x, refs, root));
      if (Array.isArray(schema.items)) return value.map((x, i) => (i < schema.items.length ? convertValue(schema.items[i], x, refs, root) : x));
    }
    return value;
  }
  if (type === "object") {
    if (!isObject(value)) return value;
    const props = isPlainSchema(schema.properties) ? schema.properties : {};
    for (const k of Object.keys(props)) if (hasOwn(value, k)) value[k] = convertValue(props[k], value[k], refs, root);
    if (isPlainSchema(schema.patternProperties)) {
      for (const p of Object.keys(schema.patternProperties)) {
        const re = new RegExp(p);
        for (const k of Object.keys(value)) if (!hasOwn(props, k) && re.test(k)) value[k] = convertValue(schema.patternProperties[p], value[k], refs, root);
      }
    }
    return value;
  }
  return convertScalar(type, value);
}

function Convert(...args) {
  const a = splitArgs(args);
  return convertValue(a.schema, a.value, a.refs, a.schema);
}

// Clean removes object properties the schema does not describe, unless the
// schema explicitly allows additional properties.
function cleanValue(schema, value, refs, root) {
  schema = resolveFor(schema, refs, root);
  if (!isPlainSchema(schema)) return value;
  if (Array.isArray(schema.allOf) && isObject(value)) {
    const known = new Set();
    for (const s of schema.allOf) {
      const r = resolveFor(s, refs, root);
      for (const k of Object.keys((r && r.properties) || {})) known.add(k);
      cleanValue(Object.assign({}, r, { additionalProperties: true }), value, refs, root);
    }
    for (const k of Object.keys(value)) if (!known.has(k)) delete value[k];
    return value;
  }
  if (Array.isArray(schema.anyOf)) {
    const v = new Validator(root, refs);
    for (const s of schema.anyOf) {
      if (v.check(s, value, "#", "", null)) return cleanValue(s, value, refs, root);
    }
    return value;
  }
  if (isObject(value) && (schema.type === "object" || isPlainSchema(schema.properties))) {
    const props = isPlainSchema(schema.properties) ? schema.properties : {};
    const patterns = isPlainSchema(schema.patternProperties) ? Object.keys(schema.patternProperties) : [];
    for (const k of Object.keys(value)) {
      if (hasOwn(props, k)) {
        value[k] = cleanValue(props[k], value[k], refs, root);
        continue;
      }
      const p = patterns.find((pat) => new RegExp(pat).test(k));
      if (p !== undefined) {
        value[k] = cleanValue(schema.patternProperties[p], value[k], refs, root);
        continue;
      }
      if (isPlainSchema(schema.additionalProperties)) {
        value[k] = cleanValue(schema.additionalProperties, value[k], refs, root);
      } else if (schema.additionalProperties !== true) {
        delete value[k];
      }
    }
    return value;
  }
  if (Array.isArray(value) && isPlainSchema(schema.items)) {
    return value.map((x) => cleanValue(schema.items, x, refs, root));
  }
  return value;
}

function Clean(...args) {
  const a = splitArgs(args);
  return cleanValue(a.schema, a.value, a.refs, a.schema);
}

class AssertError extends Error {
  constructor(source, errors, value) {
    super(source);
    // typebox leaves name as Error's and freezes cause.
    Object.defineProperty(this, "cause", { value: { source: source, errors: errors, value: value }, enumerable: false, writable: false, configurable: false });
  }
}

class ParseError extends AssertError {
  constructor(errors, value) {
    super("Parse", errors, value);
  }
}

function Assert(...args) {
  const a = splitArgs(args);
  const errors = Errors(a.schema, a.refs, a.value);
  if (errors.length > 0) throw new AssertError("Assert", errors, a.value);
}

// Parse runs the TypeBox pipeline Clone, Default, Convert, Clean, then checks
// the result and throws ParseError when it still does not match.
function Parse(...args) {
  const a = splitArgs(args);
  const v = new Validator(a.schema, a.refs);
  if (v.check(a.schema, a.value, "#", "", null)) return a.value;
  throw new ParseError(Errors(a.schema, a.refs, a.value), a.value);
}

// Repair is the corrective pipeline TypeBox runs when asked to: Clone,
// Default, Convert, Clean, then check.
function Repair(...args) {
  const a = splitArgs(args);
  let value = Clone(a.value);
  value = defaultValue(a.schema, value, a.refs, a.schema);
  value = convertValue(a.schema, value, a.refs, a.schema);
  value = cleanValue(a.schema, value, a.refs, a.schema);
  const errors = Errors(a.schema, a.refs, value);
  if (errors.length > 0) throw new ParseError(errors, value);
  return value;
}

function Hash(value) {
  // FNV-1a over the JSON text: stable and cheap, enough for equality caches.
  const text = JSON.stringify(value) === undefined ? String(value) : JSON.stringify(value);
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) {
    h ^= globalThis.BigInt(text.charCodeAt(i));
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h;
}

function unsupported(name) {
  return function () {
    throw new Error("typebox/value: Value." + name + " is not supported in pi-go");
  };
}

const Value = {
  Assert: Assert, Check: Check, Clean: Clean, Clone: Clone, Convert: Convert, Create: Create,
  Decode: (...args) => Parse(...args), Default: Default, Diff: unsupported("Diff"),
  Encode: (...args) => { const a = splitArgs(args); return a.value; }, Equal: Equal, Errors: Errors,
  HasCodec: () => false, Hash: Hash, Parse: Parse, Patch: unsupported("Patch"),
  Pointer: { Get: unsupported("Pointer.Get"), Set: unsupported("Pointer.Set"), Delete: unsupported("Pointer.Delete"), Has: unsupported("Pointer.Has") },
  Repair: Repair,
};

function unsupportedError(name) {
  const C = class extends Error {};
  Object.defineProperty(C, "name", { value: name });
  return C;
}

function IsOptionalUndefined(schema, key, value) {
  return schema && schema["~optional"] === true && value === undefined;
}

function Pipeline(steps) {
  return function (...args) {
    const a = splitArgs(args);
    let value = a.value;
    for (const step of steps) value = step(a.refs, a.schema, value);
    return value;
  };
}

Object.defineProperty(exports, "__esModule", { value: true });
for (const name of Object.keys(Value)) exports[name] = Value[name];
exports.CreateError = unsupportedError("CreateError");
exports.DecodeError = unsupportedError("DecodeError");
exports.EncodeError = unsupportedError("EncodeError");
exports.IsOptionalUndefined = IsOptionalUndefined;
exports.Pipeline = Pipeline;
exports.Parser = (...args) => Repair(...args);
exports.UnionPrioritySort = (types) => types.slice();
exports.UnionScoreSelect = (types) => types[0];
for (const name of ["Delete", "Edit", "Insert", "Update"]) exports[name] = {};
exports.Value = Value;
exports.default = Value;
exports.AssertError = AssertError;
exports.ParseError = ParseError;
exports.DecodeUnsafe = Value.Decode;
exports.EncodeUnsafe = Value.Encode;
// The compile module reuses the validator; it is not part of the public API.
Object.defineProperty(exports, "__piValidator", { value: Validator, enumerable: false });
