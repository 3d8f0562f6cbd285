// Moved to src/config (issue 42: the shop's configuration is not the provider's). Kept only so that branches written
// before the move still compile when merged; import from src/config instead, and delete this file once they are in.
export * from "../../config"
