/** The package's `job-signals-mock-server/contract` entry: the service contract the mock serves (it lives at the repository's ground floor, contract/), and the OpenAPI document generated from it. */
export * from '../../contract/index';
export { openApiDocument, type OpenApiDocument } from './openapi/document.mts';
