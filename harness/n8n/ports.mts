/** Free loopback ports: nothing here assumes it is alone on the machine. */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The lowest port freePort picks: above the well-known and common service ports. */
const PICK_FROM = 20_000;

/** The ports this process was given last, not given again: two picks before either is bound must differ. */
const recent: number[] = [];
const RECENT_MAX = 1000;

/**
 * A free loopback port for a server that binds it later (n8n binds its port seconds after it is chosen). Picked at
 * random below the kernel's ephemeral range (ip_local_port_range), where no outgoing connection takes it meanwhile:
 * a port from listen(0) lies in that range, where the connections of every test on the machine take theirs, and a
 * version-matrix run lost its n8n's port in the seconds before n8n bound it ("n8n's port … is already in use").
 * Checked free by binding it.
 */
export async function freePort(): Promise<number> {
	const below = ephemeralFloor();
	if (below === undefined || below - PICK_FROM < 1000) return await kernelPort();
	for (let attempt = 0; attempt < 100; attempt++) {
		const port = PICK_FROM + Math.floor(Math.random() * (below - PICK_FROM));
		if (recent.includes(port)) continue;
		// Taken before the check, so that concurrent calls never pick the same one.
		recent.push(port);
		if (recent.length > RECENT_MAX) recent.shift();
		if (await isPortFree(port)) return port;
	}
	return await kernelPort();
}

/** The first port of Linux's ephemeral range, or undefined where the system does not say. */
function ephemeralFloor(): number | undefined {
	try {
		const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
		return Number.isInteger(low) && low > 0 ? low : undefined;
	} catch {
		return undefined;
	}
}

/** A port the kernel gives listen(0), for the rare system where no range below its ephemeral ports is free. */
async function kernelPort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
}

/** True when nothing listens on the port (checked by binding it). */
export async function isPortFree(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const server = createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}
