// A client generated from the service's OpenAPI document, as testers generate one: openapi-typescript's types, with
// openapi-fetch. The boolean query parameters are booleans (the spec's type): `active_only: false` type-checks, the
// word "false" does not, and openapi-fetch sends `active_only=false`, which the mock reads as false.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getResponse } from 'msw';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/openapi/document.mts';
import { createMockService, type MockService } from '../src/service.mts';
import { APP_URL, DEMO_TOKEN, SMALL } from './harness.mts';

const require = createRequire(import.meta.url);
let folder: string;

beforeAll(async () => {
	// Beside the installed packages, so that the files there resolve `openapi-fetch` as a project's would.
	const nodeModules = dirname(dirname(require.resolve('openapi-fetch/package.json')));
	// A fresh install has no node_modules/.cache yet.
	mkdirSync(join(nodeModules, '.cache'), { recursive: true });
	folder = mkdtempSync(join(nodeModules, '.cache', 'openapi-typescript-'));
	const types = astToString(await openapiTS(openApiDocument('http://127.0.0.1:4010') as unknown as Parameters<typeof openapiTS>[0]));
	writeFileSync(join(folder, 'job-signals.ts'), types);
}, 60_000);
afterAll(() => {
	if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

/** tsc's complaints about this file, written beside the generated types (strict, as a project's tsconfig would be). */
function typeErrors(name: string, source: string): string[] {
	const file = join(folder, name);
	writeFileSync(file, source);
	const program = ts.createProgram([file], {
		strict: true, noEmit: true, skipLibCheck: true, types: [],
		target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
	});
	return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

const client = (query: string) => `import createClient from 'openapi-fetch';
import type { paths } from './job-signals';
const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010/v2', headers: { authorization: 'Bearer demo-token-job-signals' } });
export const signals = () => client.GET('/signals/{group}', { params: { path: { group: 'problems' }, query: ${query} } });
`;

describe('a client generated with openapi-typescript and openapi-fetch', () => {
	it('takes booleans for the boolean query parameters, and refuses the words', () => {
		expect(typeErrors('booleans.ts', client('{ active_only: false, direct_only: true, page: 2, per_page: 100 }'))).toEqual([]);
		expect(typeErrors('words.ts', client("{ active_only: 'false' }"))).toEqual(["Type 'string' is not assignable to type 'boolean | undefined'."]);
	});

	describe('against the mock', () => {
		let service: MockService;
		const sent: string[] = [];
		beforeAll(async () => {
			service = await createMockService(SMALL);
		});
		afterAll(() => service.close());

		it('sends active_only: false as active_only=false, and the mock answers the inactive signals too', async () => {
			const api = createClient({
				baseUrl: `${APP_URL}/v2`,
				headers: { authorization: `Bearer ${DEMO_TOKEN}` },
				fetch: async (request: Request) => {
					sent.push(request.url);
					return (await getResponse(service.handlers, request)) ?? new Response(null, { status: 599 });
				},
			});
			// The generated types are not imported here (they are written when the test runs): the call is typed by hand.
			const get = api.GET as unknown as (path: string, init: object) => Promise<{ data?: { pagination: { count_signals: number } }; response: Response }>;
			const count = async (query: Record<string, boolean>) => {
				const { data, response } = await get('/signals/{group}', { params: { path: { group: 'problems' }, query } });
				expect(response.status).toBe(200);
				return data!.pagination.count_signals;
			};
			const activeOnly = await count({ active_only: true });
			const all = await count({ active_only: false });
			expect(sent.map((url) => new URL(url).search)).toEqual(['?active_only=true', '?active_only=false']);
			expect(all).toBeGreaterThan(activeOnly);
			expect(await count({})).toBe(activeOnly);
		});
	});
});
