/**
 * A comparing benchmark is one file in two roles: the parent (`main`), which forks the file again with
 * `--mock DIST` for each build it measures, and that child, which serves the build's mock.
 */
export function runRole(runMock: (dist: string) => Promise<void>, main: () => Promise<void>): void {
	if (process.argv[2] === '--mock') {
		void runMock(process.argv[3]);
		return;
	}
	main().catch((error: unknown) => {
		console.error(error);
		process.exit(1);
	});
}
