import PagingCLI

await PagingCommand.runAndExit()
