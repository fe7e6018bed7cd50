using DiagExt.AflHarness;

return HarnessCommandLine.Run(args, Console.Out);
