// MikroORM keeps entity metadata in a process-wide store; each suite boots its own app, so start it empty.
const { MetadataStorage } = require("@medusajs/framework/mikro-orm/core")

MetadataStorage.clear()
