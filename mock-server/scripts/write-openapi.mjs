// Build step: writes the OpenAPI document, generated from the contract, to the package's openapi.json (servers at the mock's default address).
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../dist/contract.js';
import { DEFAULT_HOST, DEFAULT_PORT } from '../dist/index.js';

const file = new URL('../openapi.json', import.meta.url);
writeFileSync(file, `${JSON.stringify(openApiDocument(`http://${DEFAULT_HOST}:${DEFAULT_PORT}`), null, '\t')}\n`);
