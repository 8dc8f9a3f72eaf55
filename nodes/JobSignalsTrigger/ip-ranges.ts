/**
 * IPv4 and IPv6 addresses and CIDR ranges, for the trigger's Allowed IPs (sender-checks.ts). No dependency: n8n's
 * community-node rules allow none at runtime, and the parsing is small.
 *
 * Every address is a 128-bit number; an IPv4 address is its IPv4-mapped IPv6 form (::ffff:a.b.c.d), and an IPv4
 * range a.b.c.d/n is ::ffff:a.b.c.d/(96 + n). So a dual-stack server's `::ffff:10.0.0.1` is `10.0.0.1`, `10.0.0.0/8`
 * holds both, `0.0.0.0/0` holds every IPv4 sender and `::/0` every sender.
 *
 * Strict forms only: dotted quads of four decimal parts without leading zeros (`010.0.0.1` could be read as octal),
 * IPv6 in the RFC 4291 text form (hex groups, one `::`, an IPv4 tail). A zone (`fe80::1%eth0`) is dropped from a
 * sender's address and refused in an entry.
 */

export interface IpRange {
	/** The range's first address (host bits cleared). */
	network: bigint;
	/** Leading bits that must match, 0–128, of the 128-bit form. */
	prefix: number;
}

const IPV4_MAPPED = 0xffffn << 32n;
const IPV4_BITS_IN_IPV6 = 96;

/** A dotted quad as a 32-bit number; undefined when it is not one. */
function parseIpv4(text: string): bigint | undefined {
	if (!/^(?:0|[1-9]\d{0,2})(?:\.(?:0|[1-9]\d{0,2})){3}$/.test(text)) return undefined;
	let value = 0n;
	for (const part of text.split('.')) {
		const byte = Number(part);
		if (byte > 255) return undefined;
		value = (value << 8n) | BigInt(byte);
	}
	return value;
}

/** The 16-bit groups of one side of `::`; an IPv4 tail counts as two. Undefined when a group is not 1–4 hex digits. */
function groupsOf(part: string, ipv4TailAllowed: boolean): number[] | undefined {
	if (part === '') return [];
	const pieces = part.split(':');
	const groups: number[] = [];
	for (const [index, piece] of pieces.entries()) {
		if (/^[0-9a-f]{1,4}$/i.test(piece)) {
			groups.push(parseInt(piece, 16));
			continue;
		}
		const ipv4 = ipv4TailAllowed && index === pieces.length - 1 ? parseIpv4(piece) : undefined;
		if (ipv4 === undefined) return undefined;
		groups.push(Number(ipv4 >> 16n), Number(ipv4 & 0xffffn));
	}
	return groups;
}

/** An IPv6 address as a 128-bit number; undefined when it is not one. */
function parseIpv6(text: string): bigint | undefined {
	const halves = text.split('::');
	if (halves.length > 2) return undefined;
	const head = groupsOf(halves[0], halves.length === 1);
	const tail = halves.length === 2 ? groupsOf(halves[1], true) : [];
	if (head === undefined || tail === undefined) return undefined;
	const missing = 8 - head.length - tail.length;
	// Without `::` the eight groups are all there; `::` stands for one group of zeros or more.
	if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
	const groups = [...head, ...new Array<number>(halves.length === 1 ? 0 : missing).fill(0), ...tail];
	return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

/** An address in the 128-bit form, IPv4 mapped; undefined when the text is not an address. */
function parseAny(text: string): { value: bigint; bits: 32 | 128 } | undefined {
	const ipv4 = parseIpv4(text);
	if (ipv4 !== undefined) return { value: IPV4_MAPPED | ipv4, bits: 32 };
	const ipv6 = parseIpv6(text);
	return ipv6 === undefined ? undefined : { value: ipv6, bits: 128 };
}

/** A sender's address (as express gives it in `req.ip`), zone dropped; undefined when it is not an address. */
export function parseAddress(text: unknown): bigint | undefined {
	if (typeof text !== 'string') return undefined;
	const zone = text.indexOf('%');
	return parseAny(zone < 0 ? text : text.slice(0, zone))?.value;
}

/** An Allowed IPs entry: an address (a range of one) or address/prefix. A string says what is wrong with it. */
export function parseRange(entry: string): IpRange | string {
	const slash = entry.indexOf('/');
	const address = parseAny(slash < 0 ? entry : entry.slice(0, slash));
	if (address === undefined) return `"${entry}" is not an IP address or CIDR range`;
	let prefix: number = address.bits;
	if (slash >= 0) {
		const given = entry.slice(slash + 1);
		if (!/^\d{1,3}$/.test(given) || Number(given) > address.bits) {
			return `"${entry}": the prefix after "/" must be a whole number from 0 to ${address.bits} for an ${address.bits === 32 ? 'IPv4' : 'IPv6'} range`;
		}
		prefix = Number(given);
	}
	const prefix128 = address.bits === 32 ? prefix + IPV4_BITS_IN_IPV6 : prefix;
	return { network: address.value & maskOf(prefix128), prefix: prefix128 };
}

function maskOf(prefix: number): bigint {
	const all = (1n << 128n) - 1n;
	return (all >> BigInt(128 - prefix)) << BigInt(128 - prefix);
}

export function inRange(address: bigint, range: IpRange): boolean {
	return (address ^ range.network) >> BigInt(128 - range.prefix) === 0n;
}
