// Fails early, with a message, when the pinned Node (devDependency "node") did not install.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `convo-sdk needs Node >= 22.12, but npm is running Node ${process.versions.node}.\n` +
      'The repository pins Node 24 through the "node" devDependency; its install script did not run.\n' +
      'Run "npm install" (without --ignore-scripts), or use Node >= 22.12.',
  );
  process.exit(1);
}
