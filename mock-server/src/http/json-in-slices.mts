/**
 * A 200 JSON answer `{"<name>": [items]}` written a share per turn: the events of
 * a cycle of 1,000 changes of each kind are ~10,000 records, ~15 MB of JSON, which
 * JSON.stringify wrote in one 60–100 ms step. The bytes are those JSON.stringify
 * gives for the whole object (an array is its items' JSON joined by commas).
 */
import type { Work } from '../base/work.mts';
import { jsonChunks, utf8 } from './respond.mts';

/** Writing JSON costs ~3–5 ms per megabyte here: a character is ~1/300,000 of a turn. */
const CHARACTER_STEPS = 3;

export async function jsonListInSlices(name: string, items: readonly unknown[], work: Work): Promise<Response> {
	const chunks: Uint8Array<ArrayBuffer>[] = [];
	let part = `{${JSON.stringify(name)}:[`;
	for (let i = 0; i < items.length; i++) {
		const text = JSON.stringify(items[i]);
		part += i === 0 ? text : `,${text}`;
		const pausing = work.spend(text.length * CHARACTER_STEPS);
		if (pausing) {
			chunks.push(utf8.encode(part));
			part = '';
			await pausing;
		}
	}
	chunks.push(utf8.encode(`${part}]}`));
	return jsonChunks(chunks);
}
