/**
 * Writes the endpoint table of docs/api-assumptions.md ("Endpoints") from the contract's table
 * (contract/endpoints.ts), between the page's two `endpoints` markers: each row's summary, method
 * and path, and origin (what the spec shows, what the project assumed).
 *
 * `node scripts/endpoints-doc.mts` rewrites the table; `--check` exits 1 when the page differs
 * from the rows (npm run typecheck runs the check; both through doc-blocks.mts). It reads the contract through the mock's public entry,
 * so the mock must be built first (`npm run build -w mock-server`; `npm run generate` does it).
 */
import { API_VERSION_SEGMENT, ENDPOINTS, type Endpoint } from 'job-signals-mock-server/contract';
import { writeBlocks } from './doc-blocks.mts';

const rows = (Object.values(ENDPOINTS) as Endpoint[]).map(({ method, on, path, doc, origin }) => {
	const where = `${on === 'api' ? API_VERSION_SEGMENT : '{app_url}'}${path.replace(/:([a-z_]+)/g, '{$1}')}`;
	return `| ${doc.summary} | \`${method} ${where}\` | ${origin} |`;
});
const table = ['', '| operation | method and path | origin |', '|---|---|---|', ...rows, ''].join('\n');

writeBlocks({ 'docs/api-assumptions.md': { endpoints: table } }, "the endpoint table is not what contract/endpoints.ts says");
