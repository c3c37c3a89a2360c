package lockstep.nes.farm;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * deploy/k8s/: the Indexed Job runs one partition worker per index with N equal to its
 * completions, the Deployment runs lease workers its selector matches, both run the farm worker
 * on a PostgreSQL store whose URL is a Secret mounted as a file (never an argument), and every $(VAR) an argument uses is defined.
 */
class DeployManifestsTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static Path k8s() {
        return Path.of(System.getProperty("lockstep.root", "..")).toAbsolutePath().normalize().resolve("deploy/k8s");
    }

    @Test
    void indexedJobRunsOnePartitionPerIndex() throws Exception {
        JsonNode job = YAML.readTree(k8s().resolve("partition-job.yaml").toFile());
        assertEquals("batch/v1", job.path("apiVersion").asText());
        assertEquals("Job", job.path("kind").asText());
        JsonNode spec = job.path("spec");
        assertEquals("Indexed", spec.path("completionMode").asText());
        int n = spec.path("completions").asInt();
        assertTrue(n >= 1, "completions");
        assertEquals(n, spec.path("parallelism").asInt(), "one worker per index, all at once");
        JsonNode pod = spec.path("template").path("spec");
        assertTrue(List.of("Never", "OnFailure").contains(pod.path("restartPolicy").asText()), "a Job's pods may not restart Always");
        List<String> args = worker(pod);
        int p = args.indexOf("--partition");
        assertTrue(p > 0, "no --partition: " + args);
        assertEquals("$(JOB_COMPLETION_INDEX)/" + n, args.get(p + 1), "the partition count must equal completions");
        assertTrue(args.contains("--exit-when-idle"), "a Job's worker must finish: " + args);
    }

    @Test
    void deploymentRunsLeaseWorkers() throws Exception {
        JsonNode d = YAML.readTree(k8s().resolve("worker-deployment.yaml").toFile());
        assertEquals("apps/v1", d.path("apiVersion").asText());
        assertEquals("Deployment", d.path("kind").asText());
        JsonNode spec = d.path("spec");
        assertTrue(spec.path("replicas").asInt() >= 1);
        JsonNode labels = spec.path("template").path("metadata").path("labels");
        spec.path("selector").path("matchLabels").fields().forEachRemaining(e ->
                assertEquals(e.getValue().asText(), labels.path(e.getKey()).asText(), "selector label " + e.getKey()));
        List<String> args = worker(spec.path("template").path("spec"));
        assertFalse(args.contains("--partition"), "lease workers take any job: " + args);
        assertFalse(args.contains("--exit-when-idle"), "a Deployment's worker keeps polling: " + args);
    }

    /** The container's farm worker arguments, after the structure every manifest shares is checked. */
    private static List<String> worker(JsonNode podSpec) {
        JsonNode containers = podSpec.path("containers");
        assertEquals(1, containers.size());
        JsonNode c = containers.get(0);
        assertFalse(c.path("image").asText().isBlank(), "image");
        List<String> command = strings(c.path("command"));
        assertTrue(command.contains("-jar") && command.get(command.indexOf("-jar") + 1).endsWith("lockstep.jar"), command.toString());
        List<String> args = strings(c.path("args"));
        assertEquals(List.of("farm", "worker"), args.subList(0, 2));
        assertFalse(args.contains("--store"), "a store URL in the arguments shows its password to ps: " + args);
        int s = args.indexOf("--store-file");
        assertTrue(s > 0, "no --store-file: " + args);
        Path file = Path.of(args.get(s + 1));
        Set<String> env = new HashSet<>(List.of("JOB_COMPLETION_INDEX"));
        for (JsonNode e : c.path("env")) {
            env.add(e.path("name").asText());
        }
        // the file is an item of a Secret volume mounted at its folder
        String volume = null;
        for (JsonNode vm : c.path("volumeMounts")) {
            if (Path.of(vm.path("mountPath").asText()).equals(file.getParent())) {
                volume = vm.path("name").asText();
            }
        }
        assertNotNull(volume, "no volume mounted at " + file.getParent());
        boolean fromSecret = false;
        for (JsonNode v : podSpec.path("volumes")) {
            if (v.path("name").asText().equals(volume) && v.has("secret")) {
                for (JsonNode item : v.path("secret").path("items")) {
                    fromSecret |= item.path("path").asText().equals(file.getFileName().toString());
                }
            }
        }
        assertTrue(fromSecret, "the store URL file comes from a Secret");
        Matcher m = Pattern.compile("\\$\\((\\w+)\\)").matcher(String.join(" ", args));
        while (m.find()) {
            assertTrue(env.contains(m.group(1)), "$(" + m.group(1) + ") is not defined in env");
        }
        return args;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(x -> out.add(x.asText()));
        return out;
    }
}
