"use strict"
module.exports = require("./shared-demo").teardown
