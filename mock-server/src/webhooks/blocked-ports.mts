/**
 * The ports fetch refuses to connect to: the "bad ports" of the Fetch standard,
 * https://fetch.spec.whatwg.org/#port-blocking (as of its 2024 additions, 4190 and 6679).
 * Node's fetch (undici) refuses them with "bad port" before connecting, so a webhook URL on
 * one of them could never be delivered to: the settings API refuses it. The only copy of the list.
 */
export const BLOCKED_PORTS: ReadonlySet<number> = new Set([
	1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117,
	119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636,
	989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** The URL's port when fetch would refuse it (an http(s) URL without a port uses 80 or 443, never blocked), else undefined. */
export function blockedPort(url: string): number | undefined {
	const { port } = new URL(url);
	return port !== '' && BLOCKED_PORTS.has(Number(port)) ? Number(port) : undefined;
}
