// @earendil-works/pi-ai/oauth exports no values in the reference either; the
// module exists so that imports of its types resolve.
"use strict";

Object.defineProperty(exports, "__esModule", { value: true });
