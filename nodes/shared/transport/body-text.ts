/**
 * A body that is not the JSON the contract promises, reduced to a few words for
 * an error message: an HTML page (a proxy's error page) to its title or the
 * status line, anything else to its first characters. Callers redact first.
 */
const SHOWN_CHARS = 80;

export function isHtml(text: string): boolean {
	return /^\s*(<!doctype html|<html|<head|<body|<title)/i.test(text);
}

export function htmlTitle(text: string): string | undefined {
	const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.replace(/\s+/g, ' ').trim();
	return title === '' ? undefined : title;
}

/** The status line as a client sees it, e.g. "502 Bad Gateway". */
export function statusLine(status: number, statusText?: string): string {
	return `${status} ${statusText ?? ''}`.trim();
}

export function describeBody(text: string, status: number, statusText?: string): string {
	if (text.trim() === '') return 'an empty body';
	if (isHtml(text)) return `an HTML page ("${htmlTitle(text) ?? statusLine(status, statusText)}")`;
	const start = text.slice(0, SHOWN_CHARS).replace(/\s+/g, ' ');
	return `${text.length.toLocaleString('en-US')} characters of text starting "${start}${text.length > SHOWN_CHARS ? '…' : ''}"`;
}
