// Build step: writes the OpenAPI documents to the package, servers at the mock's default address: the service's
// (openapi.json, generated from the contract) and the control API's (openapi-control.json, from the /__mock routes' schemas).
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../dist/contract.js';
import { DEFAULT_HOST, DEFAULT_PORT, openApiControlDocument } from '../dist/index.js';

const address = `http://${DEFAULT_HOST}:${DEFAULT_PORT}`;
const write = (name, document) => writeFileSync(new URL(`../${name}`, import.meta.url), `${JSON.stringify(document, null, '\t')}\n`);
write('openapi.json', openApiDocument(address));
write('openapi-control.json', openApiControlDocument(address));
