/**
 * The mock's own version, from its package.json: one folder up from src/ (tests, in-process from the
 * repository) and from dist/ (the built package, whose modules tsup bundles there), so both read the same file.
 */
import { readFileSync } from 'node:fs';

export const MOCK_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
