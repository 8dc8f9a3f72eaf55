/**
 * Markdown headings as the release tests read them: the anchors GitHub and npm give them (links.test.mts)
 * and their plain names (pointers.test.mts, for comments that name a section in quotes).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export const readRepoFile = (path: string): string => readFileSync(join(REPO_ROOT, path), 'utf8');

/** Each heading's text (`## Text` → `Text`), in order, outside fenced code. */
export function headings(markdown: string): string[] {
	const result: string[] = [];
	let fenced = false;
	for (const line of markdown.split('\n')) {
		if (line.startsWith('```')) fenced = !fenced;
		const heading = !fenced && /^#{1,6} (.+)$/.exec(line);
		if (heading) result.push(heading[1]);
	}
	return result;
}

/** The anchor GitHub and npm give a Markdown heading. */
export function slug(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

/** Every heading's anchor in a Markdown file; a repeated heading gets -1, -2, … as on GitHub. */
export function anchors(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const result = new Set<string>();
	for (const heading of headings(markdown)) {
		const base = slug(heading);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		result.add(count === 0 ? base : `${base}-${count}`);
	}
	return result;
}

/**
 * A section's name as a comment quotes it or a heading spells it: lower case, Markdown's ` and * dropped,
 * leading #s and trailing punctuation gone, spaces collapsed.
 */
export function sectionName(text: string): string {
	return text
		.replace(/[`*]/g, '')
		.replace(/^\s*#+\s*/, '')
		.replace(/\s+/g, ' ')
		.trim()
		.replace(/[\s.,;:!?]+$/, '')
		.toLowerCase();
}

/**
 * Whether a quoted section names a heading of the file: the heading's name, or its name before a
 * parenthesis or a colon (`"Your own data"` for `## Your own data (--data)`).
 */
export function hasSection(markdown: string, section: string): boolean {
	const wanted = sectionName(section);
	return headings(markdown).some((heading) => {
		const name = sectionName(heading);
		return name === wanted || name.startsWith(`${wanted} (`) || name.startsWith(`${wanted}:`);
	});
}
