/**
 * The package's `job-signals-mock-server/contract` entry, a door out: the service contract the mock serves (contract/ at
 * the repository's ground floor) and the OpenAPI document generated from it, for other projects. The mock's own files
 * take the contract through base/contract.mts instead, whose list also holds what the mock uses but does not publish.
 */
export * from '../../contract/index';
export { openApiDocument, type OpenApiDocument } from './openapi/document.mts';
