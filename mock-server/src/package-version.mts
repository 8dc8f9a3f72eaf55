/**
 * The mock's own version, from its package.json: one folder up from src/ (tests, in-process from the
 * repository) and from dist/ (the built package, whose modules tsup bundles there), so both read the same file.
 * Read when first asked, not on import: a bundle of the mock's source elsewhere (the root's benchmarks) has no
 * package.json one folder up, and asks for no version.
 */
import { readFileSync } from 'node:fs';

let version: string | undefined;

export const mockVersion = (): string =>
	(version ??= (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version);
