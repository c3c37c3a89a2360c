package lockstep.nes.app;

import lockstep.nes.verifier.host.EngineHost;

/**
 * Entry point of an engine host: {@code java -cp BUILD.jar lockstep.nes.app.EngineHostMain}
 * serves this build's engine over the engine-host protocol on stdin/stdout
 * (docs/engine-host-protocol.md). Every build keeps this class name, so any build's jar can be a
 * canary's baseline or candidate.
 */
public final class EngineHostMain {
    private EngineHostMain() {
    }

    public static void main(String[] args) {
        String version = EngineHostMain.class.getPackage().getImplementationVersion();
        System.exit(EngineHost.main("lockstep-nes/" + (version != null ? version : "dev")));
    }
}
