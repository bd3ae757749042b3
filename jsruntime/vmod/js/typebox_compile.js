// typebox/compile: Compile(schema) returns a validator object bound to one
// schema, with the methods TypeBox's compiled Validator offers.
"use strict";

const value = require("typebox/value");

class Validator {
  constructor(schema, references) {
    this.schema = schema;
    this.references = references || [];
  }

  IsAccelerated() { return false; }
  Type() { return this.schema; }
  Code() { return ""; }
  Check(v) { return value.Check(this.schema, this.references, v); }
  Errors(v) { return value.Errors(this.schema, this.references, v); }
  Parse(v) { return value.Parse(this.schema, this.references, v); }
  Clean(v) { return value.Clean(this.schema, this.references, v); }
  Convert(v) { return value.Convert(this.schema, this.references, v); }
  Create() { return value.Create(this.schema, this.references); }
  Default(v) { return value.Default(this.schema, this.references, v); }
  Decode(v) { return value.Parse(this.schema, this.references, v); }
  Encode(v) { return v; }
}

// Compile accepts (schema) or (references, schema) like TypeBox 1.x.
function Compile(a, b) {
  if (b !== undefined) return new Validator(b, Array.isArray(a) ? a : Object.values(a || {}));
  return new Validator(a, []);
}

function Code() { return ""; }

Object.defineProperty(exports, "__esModule", { value: true });
exports.Compile = Compile;
exports.Code = Code;
exports.Validator = Validator;
exports.default = Compile;
// TypeCompiler is TypeBox 0.x's name for the same thing.
exports.TypeCompiler = { Compile: Compile, Code: Code };
