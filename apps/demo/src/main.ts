// Placeholder until the multi-process demo lands (issue 7).
console.log('wiregrad demo: the multi-process training demo is not built yet.');
