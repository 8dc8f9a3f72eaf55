/**
 * The pages a user reads stay short: README, the mock's README and docs/ together at most 150,000 bytes. Reference
 * tables are generated from the code (`npm run generate`), so a page that outgrows the budget says too much by hand.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { REPO_ROOT } from './markdown.mts';

const BUDGET_BYTES = 150_000;

it(`README.md, mock-server/README.md and docs/*.md total at most ${BUDGET_BYTES} bytes`, () => {
	const docs = readdirSync(join(REPO_ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => join('docs', name));
	const sizes = Object.fromEntries(['README.md', 'mock-server/README.md', ...docs].map((path) => [path, statSync(join(REPO_ROOT, path)).size]));
	const total = Object.values(sizes).reduce((sum, size) => sum + size, 0);
	expect(total, `${total} bytes: ${JSON.stringify(sizes)}`).toBeLessThanOrEqual(BUDGET_BYTES);
});
