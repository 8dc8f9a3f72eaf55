/**
 * Writes mock-server/README.md's reference tables (the CLI's and record's flags, the control routes, WireMock's admin
 * routes served and not served) between their markers, as the mock's own script makes them from its code
 * (mock-server/scripts/readme-tables.mjs, run as a program: the root reaches into the mock only so). `--check` exits 1
 * when the README differs (both through doc-blocks.mts). Reads the mock's sources, so it needs no build.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { writeBlocks } from './doc-blocks.mts';

const script = resolve(import.meta.dirname, '..', 'mock-server', 'scripts', 'readme-tables.mjs');
const tables = JSON.parse(execFileSync(process.execPath, [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })) as Record<string, string>;

writeBlocks({ 'mock-server/README.md': tables }, 'a reference table is not what the code says');
