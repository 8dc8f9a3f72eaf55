/**
 * The HTTP front of an n8n deployment, as a load balancer sits before n8n's
 * webhook processes: it routes each webhook path to one process (README's
 * advice for this trigger in queue mode), and can spoil the answer AFTER n8n has received the delivery — a 500 instead of
 * n8n's 200, or n8n's answer held past the sender's timeout — so that the
 * sender's retry really reaches n8n a second time.
 */
import { createServer, request, type Server } from 'node:http';
import { freePort } from './ports.mts';

/** What the front does with one attempt of one event. */
export type Spoil = 'none' | 'fail-after-accept' | { holdMs: number };

export interface WebhookFront {
	url: string;
	setTargets(bases: string[]): void;
	/** Decides per attempt (1 = first) of an event id at one URL; the default spoils nothing. */
	setSpoiler(spoil: (eventId: string, attempt: number) => Spoil): void;
	/** Attempts seen per `<path> <event id>`. */
	attempts: Map<string, number>;
	close(): Promise<void>;
}

/** The index of the process a path is routed to: a stable hash, as a load balancer's path rule would pin it. */
export function processForPath(path: string, processes: number): number {
	let hash = 0;
	for (const char of path) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
	return hash % processes;
}

export async function startWebhookFront(): Promise<WebhookFront> {
	const port = await freePort();
	let targets: string[] = [];
	let spoiler: (eventId: string, attempt: number) => Spoil = () => 'none';
	const attempts = new Map<string, number>();

	const server: Server = createServer((incoming, answer) => {
		const chunks: Buffer[] = [];
		incoming.on('data', (c: Buffer) => chunks.push(c));
		incoming.on('end', () => {
			// Before setTargets, or for a deployment without webhook processes: an answer, not a thrown error, and no attempt.
			if (targets.length === 0) {
				answer.writeHead(502).end('the front has no webhook process to route to');
				return;
			}
			const body = Buffer.concat(chunks);
			let id = '';
			try {
				id = String((JSON.parse(body.toString()) as { webhook_event_id?: unknown }).webhook_event_id ?? '');
			} catch {
				// Forwarded as is: n8n answers what it answers.
			}
			const key = `${incoming.url} ${id}`;
			const attempt = (attempts.get(key) ?? 0) + 1;
			attempts.set(key, attempt);
			const spoil = spoiler(id, attempt);
			const target = new URL(targets[processForPath(incoming.url ?? '/', targets.length)]);
			const forward = request(
				{ host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: incoming.headers },
				(response) => {
					const responseChunks: Buffer[] = [];
					response.on('data', (c: Buffer) => responseChunks.push(c));
					response.on('end', () => {
						if (spoil === 'fail-after-accept') {
							answer.writeHead(500).end('the front failed after n8n accepted the delivery');
						} else {
							const send = () => answer.writeHead(response.statusCode ?? 502, response.headers).end(Buffer.concat(responseChunks));
							if (spoil === 'none') send();
							else setTimeout(send, spoil.holdMs);
						}
					});
				},
			);
			forward.on('error', () => answer.writeHead(502).end());
			forward.end(body);
		});
	});
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${port}/`,
		setTargets: (bases) => (targets = bases),
		setSpoiler: (spoil) => (spoiler = spoil),
		attempts,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
