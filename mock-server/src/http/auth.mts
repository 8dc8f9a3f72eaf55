/** Bearer authentication of /v2 calls (and of the webhook settings API). */
import { CHOICES } from '../../../contract/api';
import type { Account } from '../data/model.mts';
import { apiError } from './respond.mts';

export interface TokenLookup {
	accountByToken(token: string): Account | undefined;
}

/** The account the request's bearer token belongs to, or the auth error response (400, CHOICES.authErrorStatus). */
export function authenticate(request: Request, accounts: TokenLookup): Account | Response {
	const header = request.headers.get('authorization');
	if (!header) return apiError(CHOICES.authErrorStatus, 'Missing API token: send "Authorization: Bearer <api_token>"');
	const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
	if (!match) return apiError(CHOICES.authErrorStatus, 'Malformed Authorization header: expected "Bearer <api_token>"');
	return accounts.accountByToken(match[1]) ?? apiError(CHOICES.authErrorStatus, 'Invalid API token');
}
