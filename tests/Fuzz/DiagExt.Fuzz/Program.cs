using DiagExt.Fuzz;

return FuzzCommandLine.Run(args, Console.Out);
