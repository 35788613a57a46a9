/**
 * The contract's version, written once: the OpenAPI document's `info.version`, MCP's
 * `serverInfo.version` and the docs pages carry it, and a test holds the Helm chart's
 * `openpm/contract-version` annotation to it (docs/contract/versioning.md).
 */
export const CONTRACT_VERSION = '2.1.0';
