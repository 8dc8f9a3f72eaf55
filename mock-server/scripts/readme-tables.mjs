// Prints mock-server/README.md's reference tables as JSON, `{"<block>": "<markdown>"}`, made from the code by
// readme-tables.mts. Vite's module runner loads that TypeScript (and the mock's src/) as vitest does. The
// repository's scripts/mock-readme-doc.mts runs this and writes the tables into the README.
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const { module } = await runnerImport(fileURLToPath(new URL('readme-tables.mts', import.meta.url)), { configFile: false, logLevel: 'error' });
process.stdout.write(`${JSON.stringify(await module.readmeTables())}\n`);
