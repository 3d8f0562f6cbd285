"use strict"
module.exports = require("./shared-demo").setup
