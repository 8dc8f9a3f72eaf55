/**
 * The standalone server's front door (GET /): where the page, the OpenAPI documents and the README are. HTML to a
 * browser (an Accept header that prefers text/html), JSON to anything else (curl, fetch, `Accept: application/json`).
 * server.mts answers it before the routes, behind the same Host and origin checks as the page.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_VERSION_SEGMENT, MOCK_CONTROL_PATHS, OPENAPI_DOCUMENT_PATH } from '../base/contract.mts';
import { apiError } from '../http/respond.mts';
import { PAGE_PATH } from './page.mts';
import { documentStart, sha256Source } from './html-document.mts';

export const ROOT_PATH = '/';
const PACKAGE_NAME = 'job-signals-mock-server';
const ALLOW = 'GET, HEAD, OPTIONS';

/** The links the front door gives, by the address asked (`origin`, as the OpenAPI documents' servers). */
export interface RootAnswer {
	name: string;
	version: string;
	page: string;
	openapi: string;
	control_openapi: string;
	api: string;
	/** The README on the web: from package.json's `repository` (set when the package is published); null without one. */
	readme: string | null;
	/** The README in the installed package (always packed by npm); null if it is not there. */
	readme_file: string | null;
}

interface PackageFacts {
	version: string;
	readme: string | null;
	readmeFile: string | null;
}

let facts: PackageFacts | undefined;

/** The package's version and README, from its package.json: found upwards from this module (dist/ when installed, src/page/ here). */
function packageFacts(): PackageFacts {
	if (facts) return facts;
	let dir = dirname(fileURLToPath(import.meta.url));
	for (;;) {
		const file = join(dir, 'package.json');
		if (existsSync(file)) {
			const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string; repository?: string | { url?: string; directory?: string } };
			if (manifest.name === PACKAGE_NAME) {
				const readme = join(dir, 'README.md');
				facts = { version: manifest.version ?? 'unknown', readme: readmeUrl(manifest.repository), readmeFile: existsSync(readme) ? readme : null };
				return facts;
			}
		}
		const up = dirname(dir);
		if (up === dir) return (facts = { version: 'unknown', readme: null, readmeFile: null });
		dir = up;
	}
}

/**
 * The README's web address from package.json's `repository` (`git+https://github.com/o/r.git`, with `directory`
 * as publish.yml sets it): on GitHub the file itself; on another https host the repository; null for none.
 */
export function readmeUrl(repository: string | { url?: string; directory?: string } | undefined): string | null {
	const url = typeof repository === 'string' ? repository : repository?.url;
	const base = url?.replace(/^git\+/, '').replace(/\.git$/, '');
	if (base === undefined || !/^https:\/\/[^/\s]+\/\S+$/.test(base)) return null;
	const directory = typeof repository === 'object' && repository.directory ? `${repository.directory.replace(/^\/+|\/+$/g, '')}/` : '';
	return base.startsWith('https://github.com/') ? `${base}/blob/HEAD/${directory}README.md` : base;
}

export function rootAnswerFor(origin: string): RootAnswer {
	const { version, readme, readmeFile } = packageFacts();
	return {
		name: PACKAGE_NAME,
		version,
		page: `${origin}${PAGE_PATH}`,
		openapi: `${origin}${OPENAPI_DOCUMENT_PATH}`,
		control_openapi: `${origin}${MOCK_CONTROL_PATHS.openapi}`,
		api: `${origin}${API_VERSION_SEGMENT}`,
		readme,
		readme_file: readmeFile,
	};
}

/** Whether the client prefers HTML to JSON (RFC 9110 q-values, the most specific range deciding); ties, and no Accept, are JSON. */
export function prefersHtml(accept: string | null): boolean {
	if (accept === null) return false;
	const ranges = accept.split(',').map((part) => {
		const [range, ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
		const q = params.find((param) => param.startsWith('q='));
		const weight = q === undefined ? 1 : Number(q.slice(2));
		return { range, q: Number.isFinite(weight) ? weight : 0 };
	});
	const quality = (type: string) => {
		const [major] = type.split('/');
		const match = ranges.find((r) => r.range === type) ?? ranges.find((r) => r.range === `${major}/*`) ?? ranges.find((r) => r.range === '*/*');
		return match?.q ?? 0;
	};
	return quality('text/html') > quality('application/json');
}

const STYLE = `body { font: 15px/1.5 system-ui, sans-serif; color: #1d2733; margin: 40px auto; max-width: 640px; padding: 0 20px; }
h1 { font-size: 20px; } li { margin: 6px 0; } code { font: 13px ui-monospace, monospace; overflow-wrap: anywhere; } .muted { color: #5d6b7a; }`;

const CSP = [
	"default-src 'none'",
	`style-src ${sha256Source(STYLE)}`,
	'img-src data:',
	"base-uri 'none'",
	"form-action 'none'",
	"frame-ancestors 'none'",
].join('; ');

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function html(answer: RootAnswer): string {
	const link = (href: string, text: string) => `<a href="${escape(href)}">${escape(text)}</a>`;
	const readme = [
		answer.readme === null ? '' : link(answer.readme, 'on the web'),
		answer.readme_file === null ? '' : `in the installed package: <code>${escape(answer.readme_file)}</code>`,
	].filter((part) => part !== '').join('; ');
	return `${documentStart(STYLE)}
<h1>Job Signals mock <span class="muted">${escape(answer.version)}</span></h1>
<ul>
<li>${link(answer.page, 'The page')}: the mock at work (accounts, clock, webhook deliveries, request journal, rules), and its buttons</li>
<li>${link(answer.openapi, 'OpenAPI document of the service')} (the API base: <code>${escape(answer.api)}</code>)</li>
<li>${link(answer.control_openapi, 'OpenAPI document of the control API')} (<code>/__mock/…</code>)</li>
<li>README${readme === '' ? ': not found' : `: ${readme}`}</li>
</ul>
</body>
</html>
`;
}

/** The answer to a request for `/`: by Accept to GET and HEAD, Allow to OPTIONS, 405 to any other method. */
export function rootAnswer(method: string, origin: string, accept: string | null): Response {
	if (method === 'OPTIONS') return new Response(null, { status: 204, headers: { allow: ALLOW } });
	if (method !== 'GET' && method !== 'HEAD') return apiError(405, `${method} is not allowed here; allowed: ${ALLOW}`, { allow: ALLOW });
	const answer = rootAnswerFor(origin);
	// Vary: the same URL answers HTML or JSON.
	if (!prefersHtml(accept)) return Response.json(answer, { headers: { vary: 'Accept', 'cache-control': 'no-store' } });
	return new Response(html(answer), {
		headers: {
			'content-type': 'text/html; charset=utf-8',
			'content-security-policy': CSP,
			'x-content-type-options': 'nosniff',
			'referrer-policy': 'no-referrer',
			vary: 'Accept',
			'cache-control': 'no-store',
		},
	});
}
