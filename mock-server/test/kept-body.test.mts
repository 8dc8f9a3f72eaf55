import { describe, expect, it } from 'vitest';
import { KeptBody } from '../src/http/kept-body.mts';
import { envelopeChunks } from '../src/handlers/record-json.mts';

/** The body's chunks as the server reads them. */
async function chunksOf(response: Response): Promise<Uint8Array[]> {
	const chunks: Uint8Array[] = [];
	const reader = response.body!.getReader();
	for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
	return chunks;
}

describe('KeptBody', () => {
	const records = Array.from({ length: 50 }, (_, i) => ({ id: `r${i}`, place: i % 2 ? 'Zürich' : 'Berlin' }));
	const expected = JSON.stringify({ pagination: { page: 1 }, signals: records });
	const text = (chunks: Uint8Array[]) => Buffer.concat(chunks).toString('utf8');

	it('answers first with the records\' own bytes, then from one joined buffer; the same body and length every time', async () => {
		const body = new KeptBody(envelopeChunks({ pagination: { page: 1 } }, 'signals', records));
		const answers = [body.response(), body.response(), body.response()];
		const read = await Promise.all(answers.map(chunksOf));
		expect(read.map((chunks) => chunks.length)).toEqual([52, 1, 1]);
		for (const [i, chunks] of read.entries()) {
			expect(text(chunks)).toBe(expected);
			expect(answers[i].headers.get('content-length')).toBe(String(Buffer.byteLength(expected)));
			expect(answers[i].status).toBe(200);
		}
		// The joined buffer is made once and re-sent, not copied per answer.
		expect(read[2][0].buffer).toBe(read[1][0].buffer);
	});
});
