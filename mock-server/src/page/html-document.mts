/** What the mock's two HTML documents (the page and the front door) share: their opening and the CSP source of an inline part. */
import { createHash } from 'node:crypto';

/** A Content-Security-Policy source for one inline script or stylesheet: its SHA-256. */
export const sha256Source = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Everything before the body's content; the icon is an empty data: URL, so the browser asks the mock for no /favicon.ico. */
export const documentStart = (style: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Job Signals mock</title>
<link rel="icon" href="data:,">
<style>${style}</style>
</head>
<body>`;
