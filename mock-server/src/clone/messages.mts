/** One line on stderr per message, `job-signals-mock <command>: …`, the token blanked should an answer repeat it. */
export class Messages {
	/** The token, once the flags are read. */
	token: string | undefined;

	constructor(private readonly command: string) {}

	say(message: string): void {
		console.error(`job-signals-mock ${this.command}: ${this.blank(message)}`);
	}

	blank(text: string): string {
		return this.token === undefined ? text : text.replaceAll(this.token, '<token>');
	}
}
