// @earendil-works/pi-ai/models: the model helpers, shared with the pi-ai root.
"use strict";

const ai = require("@earendil-works/pi-ai");

Object.defineProperty(exports, "__esModule", { value: true });
for (const name of ["AI_TELEMETRY_SCHEMA", "ModelsError", "calculateCost", "clampThinkingLevel", "createModels",
  "createProvider", "getModelType", "getSupportedThinkingLevels", "hasApi", "isModelType", "modelsAreEqual"]) {
  exports[name] = ai[name];
}
