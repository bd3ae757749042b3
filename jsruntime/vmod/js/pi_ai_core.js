// The part of @earendil-works/pi-ai that extensions use while they load:
// StringEnum and TypeBox's Type for tool parameter schemas. pi-ai
// re-exports these very values; the runtime's lazy stand-in for pi-ai
// serves them from here, so a schema does not compile all of pi-ai.
"use strict";

const typebox = require("typebox");

// StringEnum is the schema shape providers without anyOf/const support
// accept: {type:"string", enum:[...]} plus description and default when truthy.
function StringEnum(values, options) {
  const schema = { type: "string", enum: values };
  if (options && options.description) schema.description = options.description;
  if (options && options.default) schema.default = options.default;
  return schema;
}

Object.defineProperty(exports, "__esModule", { value: true });
exports.Type = typebox.Type;
exports.StringEnum = StringEnum;
