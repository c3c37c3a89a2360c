package lockstep.nes.core.input;

/** Tells a Zapper whether its photodiode sees light when aimed at picture point (x, y). */
@FunctionalInterface
public interface LightSensor {
    boolean lightAt(int x, int y);
}
