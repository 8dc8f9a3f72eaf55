/**
 * Secrets out of anything the service says: the API token and the upload
 * access token, as they are, URL-encoded and JSON-escaped (`Bearer …` holds the
 * token as it is), before service text goes into an error or an output item.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

export const REDACTED = '[redacted]';

export interface Secrets {
	/** Every form the secrets can take in a service's text, longest first (a form inside another is then never left half-replaced). */
	forms: string[];
	/** Per secret, the start all its forms share: one scan of a page per secret instead of one per form. */
	probes: string[];
}

export function secretsOf(credentials: ICredentialDataDecryptedObject): Secrets {
	const forms = new Set<string>();
	const probes = new Set<string>();
	for (const secret of [credentials.apiToken, credentials.accessToken]) {
		if (typeof secret !== 'string' || secret === '') continue;
		const encoded = encodeURIComponent(secret);
		const variants = [
			secret,
			encoded,
			encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
			encoded.replace(/%20/g, '+'),
			JSON.stringify(secret).slice(1, -1),
		];
		for (const variant of variants) forms.add(variant);
		probes.add(commonStart(variants));
	}
	return { forms: [...forms].sort((a, b) => b.length - a.length), probes: [...probes] };
}

function commonStart(texts: string[]): string {
	let length = 0;
	while (length < texts[0].length && texts.every((text) => text[length] === texts[0][length])) length++;
	return texts[0].slice(0, length);
}

export function containsSecret(text: string, secrets: Secrets): boolean {
	return secrets.probes.some((probe) => text.includes(probe)) && secrets.forms.some((form) => text.includes(form));
}

export function redactText(text: string, secrets: Secrets): string {
	let out = text;
	for (const form of secrets.forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
	return out;
}

/** A copy of a parsed answer with every string (keys included) redacted. */
export function redactDeep(value: unknown, secrets: Secrets): unknown {
	if (typeof value === 'string') return redactText(value, secrets);
	if (Array.isArray(value)) return value.map((entry) => redactDeep(entry, secrets));
	if (typeof value === 'object' && value !== null) {
		return Object.fromEntries(Object.entries(value).map(([key, entry]) => [redactText(key, secrets), redactDeep(entry, secrets)]));
	}
	return value;
}
