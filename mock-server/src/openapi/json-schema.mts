/**
 * The zod contract as JSON Schema 2020-12 for the OpenAPI document: every body
 * schema of schemas.ts as a named component (refs between them kept), and
 * query parameters one by one.
 */
import { z } from 'zod/v4';
import * as contract from '../base/contract.mts';

export type JsonSchema = Record<string, unknown>;

export const COMPONENT_REF = '#/components/schemas/';

/** `signalsEnvelopeSchema` → `SignalsEnvelope`. */
function componentName(exportName: string): string {
	return exportName[0].toUpperCase() + exportName.slice(1, -'Schema'.length);
}

/** Every zod export of schemas.ts but the query schemas (their values are strings parsed by the mock; they become parameters). */
function bodySchemas(querySchemas: ReadonlySet<z.ZodType>): Map<z.ZodType, string> {
	const named = new Map<z.ZodType, string>();
	for (const [exportName, value] of Object.entries(contract)) {
		if (value instanceof z.ZodType && exportName.endsWith('Schema') && !querySchemas.has(value)) named.set(value, componentName(exportName));
	}
	return named;
}

/** `components.schemas` and a ref to each body schema. */
export function componentSchemas(querySchemas: ReadonlySet<z.ZodType>): { schemas: Record<string, JsonSchema>; ref: (schema: z.ZodType) => JsonSchema } {
	const named = bodySchemas(querySchemas);
	const registry = z.registry<{ id: string }>();
	for (const [schema, id] of named) registry.add(schema, { id });
	const converted = z.toJSONSchema(registry, { target: 'draft-2020-12', uri: (id) => `${COMPONENT_REF}${id}` }) as { schemas: Record<string, JsonSchema> };
	// Each comes out as a standalone document; inside the OpenAPI document the dialect is set once (jsonSchemaDialect).
	const schemas = Object.fromEntries(Object.entries(converted.schemas).map(([id, { $schema: _, $id: __, ...schema }]) => [id, schema]));
	return {
		schemas,
		ref: (schema) => {
			const id = named.get(schema);
			if (id === undefined) throw new Error('The OpenAPI table names a schema that schemas.ts does not export');
			return { $ref: `${COMPONENT_REF}${id}` };
		},
	};
}

/** A query value the mock reads from the words `true`/`false` into a boolean (schemas.ts' booleanParam). */
function isBooleanWord(def: z.core.$ZodTypeDef): boolean {
	if (def.type !== 'pipe') return false;
	const { in: words, out } = def as z.core.$ZodPipeDef;
	if (out._zod.def.type !== 'transform' || words._zod.def.type !== 'enum') return false;
	const values = Object.values((words._zod.def as z.core.$ZodEnumDef).entries).sort();
	return values.length === 2 && values[0] === 'false' && values[1] === 'true';
}

/**
 * A query schema's parameters: the value a client sends, as JSON Schema. A value
 * the mock parses from decimal text into a number is described as that number
 * (integer, with its bounds), and one it parses from `true`/`false` as a boolean
 * (the spec's type): that is how clients and generators send them (openapi-fetch
 * writes `active_only: false` as `active_only=false`, the word the mock reads).
 */
export function queryParameters(query: z.ZodObject): { name: string; required: boolean; schema: JsonSchema }[] {
	return Object.entries(query.shape).map(([name, field]) => {
		const schema = z.toJSONSchema(field as z.ZodType, {
			target: 'draft-2020-12',
			io: 'input',
			override: ({ zodSchema, jsonSchema }) => {
				const def = zodSchema._zod.def;
				if (def.type === 'pipe' && def.out._zod.def.type === 'number') {
					for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
					Object.assign(jsonSchema, z.toJSONSchema(def.out, { target: 'draft-2020-12' }));
				}
				if (isBooleanWord(def)) {
					for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
					jsonSchema.type = 'boolean';
				}
				// Zod drops a default behind a pipe.
				if (def.type === 'default') jsonSchema.default = def.defaultValue;
			},
		}) as JsonSchema;
		delete schema.$schema;
		return { name, required: !(field as z.ZodType).safeParse(undefined).success, schema };
	});
}
