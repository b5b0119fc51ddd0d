import IPSDoctorCLI

CLI.runProcess(argc: CommandLine.argc, argv: CommandLine.unsafeArgv)
