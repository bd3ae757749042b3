"use strict";
module.exports = { setTimeout, setInterval, setImmediate, clearTimeout, clearInterval, clearImmediate, promises: require("timers/promises") };
