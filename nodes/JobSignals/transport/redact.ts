/**
 * Secrets out of anything the service says: the API token and the upload
 * access token, as they are, URL-encoded and JSON-escaped (`Bearer …` holds the
 * token as it is), before service text goes into an error or an output item.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

export const REDACTED = '[redacted]';

/** Every form the credential's secrets can take in a service's text, longest first (a form inside another is then never left half-replaced). */
export function secretForms(credentials: ICredentialDataDecryptedObject): string[] {
	const forms = new Set<string>();
	for (const secret of [credentials.apiToken, credentials.accessToken]) {
		if (typeof secret !== 'string' || secret === '') continue;
		const encoded = encodeURIComponent(secret);
		forms.add(secret);
		forms.add(encoded);
		forms.add(encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()));
		forms.add(encoded.replace(/%20/g, '+'));
		forms.add(JSON.stringify(secret).slice(1, -1));
	}
	return [...forms].sort((a, b) => b.length - a.length);
}

export function containsSecret(text: string, forms: readonly string[]): boolean {
	return forms.some((form) => text.includes(form));
}

export function redactText(text: string, forms: readonly string[]): string {
	let out = text;
	for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
	return out;
}

/** A copy of a parsed answer with every string (keys included) redacted. */
export function redactDeep(value: unknown, forms: readonly string[]): unknown {
	if (typeof value === 'string') return redactText(value, forms);
	if (Array.isArray(value)) return value.map((entry) => redactDeep(entry, forms));
	if (typeof value === 'object' && value !== null) {
		return Object.fromEntries(Object.entries(value).map(([key, entry]) => [redactText(key, forms), redactDeep(entry, forms)]));
	}
	return value;
}
