/** A Content-Security-Policy source for one inline script or stylesheet: its SHA-256 (the page's and the front door's). */
import { createHash } from 'node:crypto';

export const sha256Source = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
