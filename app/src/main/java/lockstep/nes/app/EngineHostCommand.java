package lockstep.nes.app;

import java.util.concurrent.Callable;
import lockstep.nes.verifier.host.EngineHost;
import picocli.CommandLine.Command;

/**
 * {@code lockstep engine-host} (hidden): the same engine host as {@link EngineHostMain}, for
 * running one by hand; controllers start {@code EngineHostMain} directly (no picocli start-up).
 */
@Command(name = "engine-host", hidden = true,
        description = "Serve this build's engine over the engine-host protocol on stdin/stdout "
                + "(docs/engine-host-protocol.md).")
public final class EngineHostCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        String version = EngineHostCommand.class.getPackage().getImplementationVersion();
        return EngineHost.main("lockstep-nes/" + (version != null ? version : "dev"));
    }
}
