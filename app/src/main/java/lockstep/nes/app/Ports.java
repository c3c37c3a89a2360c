package lockstep.nes.app;

/** TCP port options: 0 (any free port) to 65535; anything else is bad input (exit 2). */
final class Ports {
    private Ports() {
    }

    /** Checks {@code port} given with {@code option} (null: not given). */
    static void check(Integer port, String option) throws BadInput {
        if (port != null && (port < 0 || port > 65535)) {
            throw new BadInput(option + " " + port + " is out of range (0-65535)");
        }
    }
}
