// Package jsonx is the module's one home for JSON whose key order matters.
//
// The reference serialises with JavaScript's JSON.stringify: keys in
// construction order, undefined keys left out, <, > and & written raw, and
// U+2028/U+2029 written raw. Go maps forget key order and encoding/json
// escapes those characters, so everything that must match the reference
// byte for byte goes through this package:
//
//   - Marshal encodes a value with JSON.stringify's escaping (engine's
//     MarshalJSON is this function);
//   - Builder writes an object key by key into one buffer, for the hot
//     wire types that know their keys;
//   - Object is an ordered list of fields that can be edited (set in
//     place, appended, deleted) and written back in order;
//   - EachMember, Members and Split read an object's members in order with
//     raw values; Decode reads a whole value into Object, []any,
//     json.Number, string, bool and nil, keeping key order and number
//     literals.
//
// It imports only the standard library, so that engine and everything
// below it can use it.
package jsonx
