/**
 * Sender checks: who may start the workflow. They run first in the delivery phase (receive.ts), before the body is
 * looked at and before any event id is claimed or stored, so a refused request is answered 403 with a short reason,
 * starts nothing, and touches neither dedupe window (a sender that fails them cannot push real ids out).
 *
 * In order:
 * 1. Allowed IPs: the sender's address as n8n's express app gives it in `req.ip`, the address N8N_PROXY_HOPS reverse
 *    proxies in front of n8n forwarded (n8n sets express's `trust proxy` to that count; at 0, the default, it is the
 *    connection's own address), in one of the listed addresses or CIDR ranges (ip-ranges.ts).
 * 2. URL Secret: the `secret` query parameter of the delivery's URL equals the option, compared in constant time (on
 *    SHA-256 digests, so also their lengths stay hidden).
 * 3. The delivery's signature (signatureRefusal): a place held for the service's signed deliveries.
 *
 * Nothing set (the default): every sender passes. A setting that is wrong is refused
 * on activation (checkSenderSettings, from checkExists) with what to fix; at a delivery it is answered 500 and
 * starts nothing. The secret itself is never put into an answer, an error or an item.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { NodeOperationError, type IDataObject, type IHookFunctions, type INode, type INodeProperties, type IWebhookFunctions } from 'n8n-workflow';
import { listEntries } from '../shared/parameters';
import { REDACTED } from '../shared/transport/redact';
import { inRange, parseAddress, parseRange, type IpRange } from './ip-ranges';

/** The query parameter that carries the URL Secret: `<Production URL>?secret=<URL Secret>`. */
export const SECRET_QUERY_PARAMETER = 'secret';

const SECRET_MIN_LENGTH = 16;
const SECRET_MAX_LENGTH = 128;
/** URL-safe as it is (RFC 3986 unreserved): the user appends it to the URL without encoding anything. */
const SECRET_CHARACTERS = /^[A-Za-z0-9._~-]+$/;

/** Entries of the trigger's Options collection (both versions; properties.ts sorts them in). */
export const allowedIpsOption: INodeProperties = {
	displayName: 'Allowed IPs',
	name: 'allowedIps',
	type: 'string',
	default: '',
	placeholder: 'e.g. 203.0.113.7, 10.0.0.0/8, 2001:db8::/32',
	description:
		'Only deliveries from these addresses start the workflow; others are answered 403. IPv4 or IPv6 addresses and CIDR ranges, separated by commas. Behind a reverse proxy, set N8N_PROXY_HOPS so n8n sees the sender\'s address. Empty: any sender.',
};

export const urlSecretOption: INodeProperties = {
	displayName: 'URL Secret',
	name: 'urlSecret',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	placeholder: 'e.g. the output of: openssl rand -hex 32',
	description: `Only deliveries to the Production URL followed by ?${SECRET_QUERY_PARAMETER}= and this value start the workflow; others are answered 403. ${SECRET_MIN_LENGTH}–${SECRET_MAX_LENGTH} letters, digits, - _ . or ~. Manual registration: register that URL in the web app; Automatic: the node registers it. Empty: no secret.`,
};

/** What the options ask for; undefined fields are checks that are off. */
export interface SenderSettings {
	allowed?: IpRange[];
	secret?: string;
	/** The secret's SHA-256, what a delivery's secret is compared with. */
	secretDigest?: Buffer;
}

/** A setting that cannot be used: which option, what is wrong (never the secret's value), what to do. */
interface SettingsProblem {
	option: 'Allowed IPs' | 'URL Secret';
	message: string;
	description: string;
}

type Read = (name: string, fallback: string) => unknown;

/**
 * Parsed settings by the values they were parsed from: a delivery reads the options again (an expression may give
 * another value), but parses the same text only once. A few entries: one per trigger and value in this process.
 */
const parsed = new Map<string, SenderSettings | SettingsProblem>();
const PARSED_KEPT = 64;

/** Both options left empty, the default: nothing to read or parse. */
const NO_CHECKS: SenderSettings = Object.freeze({});

/** n8n reads an option left out or empty as '' (n8n-core's getNodeParameter, also through expressions and validation). */
const isEmpty = (value: unknown) => value === undefined || value === '';

/** The options as set. A field set by expression is read as evaluated; one that gives nothing while set is a problem, not "off". */
function readSettings(node: INode, read: Read): SenderSettings | SettingsProblem {
	const raw = (typeof node.parameters.options === 'object' && node.parameters.options !== null ? node.parameters.options : {}) as IDataObject;
	// Every delivery comes here first: with both options empty it costs no parameter read (each one builds n8n's
	// expression context), no key and no lookup.
	if (isEmpty(raw.allowedIps) && isEmpty(raw.urlSecret)) return NO_CHECKS;
	const ips = isEmpty(raw.allowedIps) ? '' : read('options.allowedIps', '');
	const secret = isEmpty(raw.urlSecret) ? '' : read('options.urlSecret', '');
	const key = JSON.stringify([ips, secret, typeof raw.allowedIps === 'string' && raw.allowedIps.trim() !== '', typeof raw.urlSecret === 'string' && raw.urlSecret.trim() !== '']);
	const known = parsed.get(key);
	if (known !== undefined) return known;
	const settings = parseSettings(raw, ips, secret);
	if (parsed.size >= PARSED_KEPT) parsed.clear();
	parsed.set(key, settings);
	return settings;
}

function parseSettings(raw: IDataObject, ips: unknown, secret: unknown): SenderSettings | SettingsProblem {
	const isSet = (value: unknown) => typeof value === 'string' && value.trim() !== '';
	const settings: SenderSettings = {};

	if (typeof ips !== 'string' && !Array.isArray(ips)) return allowedIpsProblem('Options → Allowed IPs must be text');
	const entries = listEntries(Array.isArray(ips) ? ips : ips.replace(/\s+/g, ','));
	if (entries.length === 0 && isSet(raw.allowedIps)) return allowedIpsProblem('Options → Allowed IPs is set but gives no address');
	if (entries.length > 0) {
		settings.allowed = [];
		for (const entry of entries) {
			const range = parseRange(entry);
			if (typeof range === 'string') return allowedIpsProblem(`Options → Allowed IPs: ${range}`);
			settings.allowed.push(range);
		}
	}

	if (typeof secret !== 'string') return urlSecretProblem('Options → URL Secret must be text');
	const trimmed = secret.trim();
	if (trimmed === '' && isSet(raw.urlSecret)) return urlSecretProblem('Options → URL Secret is set but gives an empty value');
	if (trimmed !== '') {
		if (trimmed.length < SECRET_MIN_LENGTH) return urlSecretProblem(`Options → URL Secret is shorter than ${SECRET_MIN_LENGTH} characters`);
		if (trimmed.length > SECRET_MAX_LENGTH) return urlSecretProblem(`Options → URL Secret is longer than ${SECRET_MAX_LENGTH} characters`);
		if (!SECRET_CHARACTERS.test(trimmed)) return urlSecretProblem('Options → URL Secret has a character other than letters, digits, "-", "_", "." and "~"');
		settings.secret = trimmed;
		settings.secretDigest = sha256(trimmed);
	}
	return settings;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

const isProblem = (value: SenderSettings | SettingsProblem): value is SettingsProblem => 'option' in value;

function allowedIpsProblem(message: string): SettingsProblem {
	return {
		option: 'Allowed IPs',
		message,
		description: 'Give IPv4 or IPv6 addresses (203.0.113.7, 2001:db8::1) or CIDR ranges (10.0.0.0/8, 2001:db8::/32), separated by commas. Empty: any sender.',
	};
}

function urlSecretProblem(message: string): SettingsProblem {
	return {
		option: 'URL Secret',
		message,
		description: `Use ${SECRET_MIN_LENGTH} to ${SECRET_MAX_LENGTH} letters, digits, "-", "_", "." or "~" (for example the output of "openssl rand -hex 32"), so the secret goes into the URL as it is. Empty: no secret.`,
	};
}

type ParameterContext = IHookFunctions | IWebhookFunctions;

const settingsOf = (context: ParameterContext, node: INode = context.getNode()) => readSettings(node, (name, fallback) => context.getNodeParameter(name, fallback));

/** On activation (publish, each start, Listen for test event): a setting that cannot be used stops it with what to fix. */
export function checkSenderSettings(context: IHookFunctions): void {
	const settings = settingsOf(context);
	if (isProblem(settings)) throw new NodeOperationError(context.getNode(), settings.message, { description: settings.description });
}

/** The URL Secret, for registration.ts; undefined when none is set or it is not usable (activation has refused it then). */
export function urlSecretOf(context: ParameterContext): string | undefined {
	const settings = settingsOf(context);
	return isProblem(settings) ? undefined : settings.secret;
}

/** The URL the service must deliver to: the node's webhook URL, with the URL Secret when one is set. */
export function deliveryUrl(webhookUrl: string, secret: string | undefined): string {
	return secret === undefined ? webhookUrl : `${webhookUrl}?${SECRET_QUERY_PARAMETER}=${secret}`;
}

/** True when `url` is the node's webhook URL, with or without a query (an entry registered with an earlier secret). */
export function isDeliveryUrlOf(url: string, webhookUrl: string): boolean {
	return url === webhookUrl || url.startsWith(`${webhookUrl}?`);
}

export interface Refusal {
	status: 403 | 500;
	reason: string;
}

/** Why this request may not start the workflow, or undefined when it may. `node`: the delivery's copy of the node (receive.ts). */
export function refusedSender(context: IWebhookFunctions, node: INode): Refusal | undefined {
	const settings = settingsOf(context, node);
	if (isProblem(settings)) {
		// Activation refuses this; a value set by expression can still change. Which entry is wrong is the workflow's business, not the sender's.
		return { status: 500, reason: `the trigger's ${settings.option} option cannot be used: publish the workflow again to see what to fix` };
	}
	const request = context.getRequestObject();
	if (settings.allowed !== undefined) {
		const refusal = addressRefusal((request as { ip?: unknown }).ip, settings.allowed);
		if (refusal !== undefined) return refusal;
	}
	if (settings.secretDigest !== undefined) {
		const refusal = secretRefusal(context.getQueryData() as IDataObject, settings.secretDigest);
		if (refusal !== undefined) return refusal;
	}
	return signatureRefusal();
}

/** Step 1. `req.ip` is express's: the client address after N8N_PROXY_HOPS trusted proxies (n8n's own Webhook node reads it too). */
function addressRefusal(ip: unknown, allowed: IpRange[]): Refusal | undefined {
	const address = parseAddress(ip);
	if (address !== undefined && allowed.some((range) => inRange(address, range))) return undefined;
	// The address as n8n saw it tells the user what to list or which proxy-hops setting is wrong; text that is no address is not echoed.
	const shown = address === undefined ? 'with an unknown address' : String(ip).replace(/%.*$/, '');
	return { status: 403, reason: `sender ${shown} not allowed` };
}

/** Step 2. Both sides hashed first: timingSafeEqual needs equal lengths, and the digests reveal neither value's length. */
function secretRefusal(query: IDataObject, secretDigest: Buffer): Refusal | undefined {
	const given = query[SECRET_QUERY_PARAMETER];
	const matches = typeof given === 'string' && timingSafeEqual(sha256(given), secretDigest);
	return matches ? undefined : { status: 403, reason: 'missing or wrong secret' };
}

/**
 * Step 3. The service does not sign deliveries yet (its webhook settings' Secret Key is a placeholder, spec
 * "Authentication"), so every delivery passes; once it signs them, verify the signature with the Secret Key here.
 */
function signatureRefusal(): Refusal | undefined {
	return undefined;
}

/**
 * Runs one of the trigger's methods (activation, deactivation, a delivery); an error it throws leaves without the URL
 * Secret (withoutSecret): n8n's node errors carry a copy of the node with its parameters, and a service's words about
 * the registered URL may hold it too.
 */
export async function keepingSecretOut<T>(context: ParameterContext, run: () => Promise<T>): Promise<T> {
	try {
		return await run();
	} catch (error) {
		let secret: string | undefined;
		try {
			secret = urlSecretOf(context);
		} catch {
			// A parameter that cannot be read: the error is still cleaned of the node's copy of the secret.
		}
		throw withoutSecret(error, secret);
	}
}

/**
 * The error with the URL Secret replaced: in the copy of the node (with its parameters) that n8n's node errors carry,
 * and wherever text holds the secret itself (a service that echoes the URL it refused). A usable secret is URL-safe as
 * it is, so its only form is itself, and at least 16 characters, so replacing it cannot garble other words.
 */
export function withoutSecret<E>(error: E, secret: string | undefined): E {
	if (!(error instanceof Error)) return error;
	const fields = error as unknown as Record<string, unknown>;
	if (secret !== undefined) {
		// Texts, and the plain data (JSON) n8n's errors keep beside them; other objects are left as they are.
		const clean = (value: unknown): unknown => {
			if (typeof value === 'string') return value.split(secret).join(REDACTED);
			if (Array.isArray(value)) return value.map(clean);
			if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, entry]) => [clean(key), clean(entry)]));
			return value;
		};
		for (const key of new Set([...Object.keys(error), 'message', 'stack', 'description'])) {
			if (key in error) fields[key] = clean(fields[key]);
		}
	}
	const node = fields.node as { parameters?: { options?: unknown } } | undefined;
	const options = node?.parameters?.options;
	if (typeof options === 'object' && options !== null && typeof (options as IDataObject).urlSecret === 'string' && !String((options as IDataObject).urlSecret).startsWith('=')) {
		// Whatever it holds, also a value activation refused: an expression (=…) shows where the secret comes from, not the secret.
		fields.node = { ...node, parameters: { ...node?.parameters, options: { ...options, urlSecret: REDACTED } } };
	}
	if (fields.cause instanceof Error) withoutSecret(fields.cause, secret);
	return error;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	if (typeof value !== 'object' || value === null) return false;
	const prototype: unknown = Object.getPrototypeOf(value);
	return prototype === Object.prototype || prototype === null;
}
