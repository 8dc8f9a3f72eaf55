/** The shared request-body parser: JSON checked against a contract schema; any problem becomes the route's own error answer. */
import type { z } from 'zod/v4';

export interface BodyErrors {
	/** Builds the route's error answer (an API error, or the upload's responseText). */
	fail: (message: string) => Response;
	/** The expected shape, named in the "must be JSON" message. */
	shape: string;
	/** What the body is, named in the "Invalid …" message. */
	what: string;
}

export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S, errors: BodyErrors): Promise<z.infer<S> | Response> {
	let body: unknown;
	try {
		body = JSON.parse(await request.text());
	} catch {
		return errors.fail(`The body must be JSON: ${errors.shape}`);
	}
	const parsed = schema.safeParse(body);
	if (parsed.success) return parsed.data;
	const issue = parsed.error.issues[0];
	return errors.fail(`Invalid ${errors.what}: ${issue.path.join('.') || 'body'}: ${issue.message}`);
}
