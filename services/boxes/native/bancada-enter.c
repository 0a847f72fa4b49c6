/*
 * bancada-enter: how a command enters a running local box, in one exec (see src/driver/local/enter-helper.ts).
 *
 *   bancada-enter [options] <pid> <startTime> <boxId> <cwd> <cgroup.procs>... -- <program> [args...]
 *   bancada-enter [options] --warm <pid> <startTime> <boxId> <cgroup dir or ""> <cgroup.procs>...   (the command comes on fd 4)
 *   options: --seccomp=<file>  the box's seccomp filter (src/driver/local/seccomp.ts), read on the host at start
 *            --keep-fd=<n>     a descriptor above 2 the program needs (an upload's fd 4); repeatable
 *
 * As host root, on the host: joins each cgroup.procs given (its own pid), opens the namespaces, root and
 * identity of <pid> (the box's pid 1), checks that <pid> is still the process started at <startTime> (field 22
 * of /proc/<pid>/stat) once the namespace files are open (so a reused pid cannot hand it the host's), drops its
 * supplementary groups, then joins the box's mount, uts, ipc, net and pid namespaces. It forks (a pid namespace
 * holds only children) and waits for the child, ending as the child ended (the same exit status, or the same
 * signal re-raised). The child joins the box's cgroup namespace and last its user namespace, changes root to the
 * box's, and becomes root OF THE BOX'S user namespace (the box's unprivileged host uid), drops every capability
 * for good (bounding set, ambient, inheritable, permitted, effective) with no_new_privs, and only then reads the
 * box's id file (/run/bancada/box-id, read-only, only in that box), changes to <cwd>, reports "started" on fd 3
 * and execs the program with its environment: the variables given as BANCADA_ENV_<name> become <name>, so no
 * variable of the caller (LD_PRELOAD...) ever reaches this program while it is privileged, as it is loaded.
 * Nothing of the box's files is run or loaded before every privilege is gone. Right before the exec it installs the
 * box's seccomp filter (the one bubblewrap gave the box's init: a command entered here is not the init's child, so
 * it would not inherit it) and closes every descriptor above 2 but the kept ones: whatever the service inherited
 * from its own launcher without close-on-exec never reaches a box.
 *
 * A warm entry (src/driver/local/warm-entries.ts) does the same in two halves: the cgroup joins, the opening and
 * the check ahead of time; then, once its command arrives on fd 4 (see enter_warm), the check again and the rest.
 * Its caller's variables come in that request and are set only in the child, after the privileges are gone; the
 * child starts in the command's own cgroup v2 folder (clone3 CLONE_INTO_CGROUP) instead of the parent joining it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SYS_close_range
#define SYS_close_range 436
#endif

extern char **environ;

/* The box's seccomp filter (empty: none given), and the descriptors above 2 the program keeps. */
static struct sock_fprog filter;
static int kept[8];
static int kept_count;

static void fail(int code, const char *what) {
  fprintf(stderr, "bancada: %s: %s\n", what, strerror(errno));
  exit(code);
}

/* Field 22 of /proc/<pid>/stat (the start time), or NULL. The command name (field 2) may hold spaces: read after its ')'. */
static char *start_time(const char *pid) {
  static char text[4096];
  char file[64];
  snprintf(file, sizeof file, "/proc/%s/stat", pid);
  int fd = open(file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  ssize_t length = read(fd, text, sizeof text - 1);
  close(fd);
  if (length <= 0) return NULL;
  text[length] = '\0';
  char *field = strrchr(text, ')');
  if (!field) return NULL;
  field += 2; /* field 3 */
  for (int index = 3; index < 22 && field; index++) {
    field = strchr(field, ' ');
    if (field) field++;
  }
  if (!field) return NULL;
  field[strcspn(field, " ")] = '\0';
  return field;
}

static int open_namespace(const char *pid, const char *name) {
  char file[64];
  snprintf(file, sizeof file, "/proc/%s/ns/%s", pid, name);
  int fd = open(file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(125, "the box is not running (its namespaces are gone)");
  return fd;
}

static void drop_privileges(void) {
  if (setresgid(0, 0, 0) != 0) fail(125, "setresgid in the box");
  if (setresuid(0, 0, 0) != 0) fail(125, "setresuid in the box");
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail(125, "no_new_privs");
  for (int cap = 0; cap < 64; cap++)
    if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL) fail(125, "dropping the bounding set");
  if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) fail(125, "clearing ambient capabilities");
  struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct data[2];
  memset(data, 0, sizeof data);
  if (syscall(SYS_capset, &header, data) != 0) fail(125, "dropping capabilities");
}

/* Reads the compiled filter (struct sock_filter[]) from a file only root may write, on the host, before entering. */
static void load_filter(const char *file) {
  int fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  struct stat info;
  if (fd < 0 || fstat(fd, &info) != 0) fail(125, file);
  if (!S_ISREG(info.st_mode) || info.st_uid != 0 || (info.st_mode & 022) != 0 || info.st_size <= 0 ||
      info.st_size % sizeof(struct sock_filter) != 0 || info.st_size > BPF_MAXINSNS * (off_t)sizeof(struct sock_filter)) {
    fprintf(stderr, "bancada: %s is not a seccomp filter owned by root and writable by it only\n", file);
    exit(125);
  }
  struct sock_filter *program = malloc((size_t)info.st_size);
  if (!program) fail(125, "memory");
  for (off_t done = 0; done < info.st_size;) {
    ssize_t length = read(fd, (char *)program + done, (size_t)(info.st_size - done));
    if (length < 0 && errno == EINTR) continue;
    if (length <= 0) fail(125, file);
    done += length;
  }
  close(fd);
  filter.len = (unsigned short)(info.st_size / sizeof(struct sock_filter));
  filter.filter = program;
}

/* Everything above 2 goes but the kept descriptors (close_range, else one by one). */
static void close_inherited(void) {
  unsigned int from = 3;
  for (int next = 0; next <= kept_count; next++) {
    unsigned int until = next < kept_count ? (unsigned int)kept[next] : ~0U;
    if (until < from) continue;
    if (until > from && syscall(SYS_close_range, from, until - 1, 0) != 0) {
      long most = sysconf(_SC_OPEN_MAX);
      for (long fd = from; fd < (until == ~0U ? (most > 0 ? most : 65536) : (long)until); fd++) close((int)fd);
    }
    if (until == ~0U) break;
    from = until + 1;
  }
}

/* The environment the program gets: BANCADA_ENV_<name>=v as <name>=v (after the base variables, so they win). */
static char **program_environment(void) {
  size_t count = 0;
  while (environ[count]) count++;
  char **base = calloc(count + 1, sizeof *base);
  char **extra = calloc(count + 1, sizeof *extra);
  char **result = calloc(count + 1, sizeof *result);
  if (!base || !extra || !result) fail(125, "memory");
  size_t bases = 0, extras = 0;
  const char prefix[] = "BANCADA_ENV_";
  for (size_t index = 0; index < count; index++) {
    if (strncmp(environ[index], prefix, sizeof prefix - 1) == 0)
      extra[extras++] = environ[index] + sizeof prefix - 1;
    else
      base[bases++] = environ[index];
  }
  size_t kept = 0;
  /* A base variable overridden by an extra one of the same name is left out. */
  for (size_t index = 0; index < bases; index++) {
    size_t name = strcspn(base[index], "=");
    int overridden = 0;
    for (size_t other = 0; other < extras && !overridden; other++)
      overridden = strncmp(extra[other], base[index], name + 1) == 0;
    if (!overridden) result[kept++] = base[index];
  }
  for (size_t index = 0; index < extras; index++) result[kept++] = extra[index];
  result[kept] = NULL;
  free(base);
  free(extra);
  return result;
}


/* What one command needs once the box's files are open: they name that process's namespaces from now on. */
struct box {
  const char *pid, *started, *box_id;
  int namespaces[6], user, root;
  /* The command's own cgroup v2 folder, to start the command in (clone3), or -1. */
  int group;
};

static const struct {
  const char *name;
  int type;
} joined[] = {{"mnt", CLONE_NEWNS},   {"uts", CLONE_NEWUTS}, {"ipc", CLONE_NEWIPC},
              {"net", CLONE_NEWNET}, {"pid", CLONE_NEWPID}, {"cgroup", CLONE_NEWCGROUP}};
enum { cgroup_namespace = 5 };

/* Writes this process's pid into each cgroup.procs file (the slow part: the kernel waits for an RCU grace period). */
static void join_cgroups(char **files, int count) {
  char self[32];
  snprintf(self, sizeof self, "%d", (int)getpid());
  for (int index = 0; index < count; index++) {
    int fd = open(files[index], O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, self, strlen(self)) < 0) fail(125, files[index]);
    close(fd);
  }
}

static void open_box(struct box *box) {
  for (int n = 0; n < 6; n++) box->namespaces[n] = open_namespace(box->pid, joined[n].name);
  box->user = open_namespace(box->pid, "user");
  char root_file[64];
  snprintf(root_file, sizeof root_file, "/proc/%s/root", box->pid);
  box->root = open(root_file, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (box->root < 0) fail(125, "the box is not running (its root is gone)");
}

/* The files stay valid only while the box's pid 1 is the process they were opened from (a reused pid is not). */
static void check_still_running(const struct box *box) {
  const char *now = start_time(box->pid);
  if (!now || strcmp(now, box->started) != 0) {
    fprintf(stderr, "bancada: the box is not running\n");
    exit(125);
  }
}

/*
 * A child in the command's cgroup v2 group from its first instruction (clone3 CLONE_INTO_CGROUP: no migration, so
 * none of the grace period a cgroup.procs write waits for), else a plain fork. Must run before the cgroup namespace
 * is joined: the kernel allows it only between groups inside the caller's cgroup namespace.
 */
static pid_t start_child(int group) {
  if (group >= 0) {
    struct clone_args args;
    memset(&args, 0, sizeof args);
    args.flags = CLONE_INTO_CGROUP;
    args.exit_signal = SIGCHLD;
    args.cgroup = (unsigned long long)group;
    long child = syscall(SYS_clone3, &args, sizeof args);
    if (child >= 0 || (errno != ENOSYS && errno != E2BIG && errno != EINVAL)) return (pid_t)child;
    /* An older kernel: join the group the slow way, then fork. */
    int fd = openat(group, "cgroup.procs", O_WRONLY | O_CLOEXEC);
    char self[32];
    snprintf(self, sizeof self, "%d", (int)getpid());
    if (fd < 0 || write(fd, self, strlen(self)) < 0) fail(125, "the command's cgroup");
    close(fd);
  }
  return fork();
}

/* Ends as the child ended: the same exit status, or the same signal re-raised. */
static int wait_for(pid_t child) {
  int status;
  while (waitpid(child, &status, 0) < 0)
    if (errno != EINTR) fail(125, "waitpid");
  if (WIFSIGNALED(status)) {
    int signal_number = WTERMSIG(status);
    signal(signal_number, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal_number);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    kill(getpid(), signal_number);
    return 128 + signal_number;
  }
  return WEXITSTATUS(status);
}

/*
 * Enters the box and runs the program; `environment` (NAME=value entries, or NULL) is put on top of the base
 * environment in the child. `oom_score` is what the command gets back (a warm entry lowered its own).
 */
static int enter(struct box *box, const char *cwd, char **program, char **environment, const char *oom_score) {
  if (setgroups(0, NULL) != 0) fail(125, "setgroups");
  for (int n = 0; n < cgroup_namespace; n++)
    if (setns(box->namespaces[n], joined[n].type) != 0) fail(125, joined[n].name);
  pid_t child = start_child(box->group);
  if (child < 0) fail(125, "fork");
  if (child == 0) {
    if (setns(box->namespaces[cgroup_namespace], CLONE_NEWCGROUP) != 0) fail(125, "cgroup");
    if (setns(box->user, CLONE_NEWUSER) != 0) fail(125, "user namespace");
    if (fchdir(box->root) != 0 || chroot(".") != 0 || chdir("/") != 0) fail(125, "the box's root");
    if (oom_score) {
      /* The box's own /proc (the child is in its pid namespace); raising the score needs no privilege. */
      int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
      if (fd < 0 || write(fd, oom_score, strlen(oom_score)) < 0) fail(125, "oom_score_adj");
      close(fd);
    }
    drop_privileges();
    char id[128] = "";
    int fd = open("/run/bancada/box-id", O_RDONLY | O_CLOEXEC);
    ssize_t length = fd < 0 ? -1 : read(fd, id, sizeof id - 1);
    if (fd >= 0) close(fd);
    if (length > 0) id[strcspn(id, "\n")] = '\0';
    if (length <= 0 || strcmp(id, box->box_id) != 0) {
      fprintf(stderr, "bancada: the box is not running\n");
      _exit(125);
    }
    if (chdir(cwd) != 0) {
      fprintf(stderr, "bancada: the working directory %s does not exist in the box\n", cwd);
      _exit(126);
    }
    if (environment)
      for (char **entry = environment; *entry; entry++)
        if (putenv(*entry) != 0) fail(125, "environment");
    /* no_new_privs is set (drop_privileges): an unprivileged process may install it. */
    if (filter.len && syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &filter) != 0) fail(125, "seccomp");
    if (write(3, "1", 1) < 0) { /* nobody listens for it: fine */
    }
    close_inherited();
    execvp(program[0], program);
    int code = errno == ENOENT ? 127 : 126;
    fprintf(stderr, "bancada: %s: %s\n", program[0], strerror(errno));
    _exit(code);
  }
  close(3);
  return wait_for(child);
}

/* bancada-enter <pid> <startTime> <boxId> <cwd> <cgroup.procs>... -- <program> [args...] */
static int enter_now(int argc, char **argv) {
  struct box box = {.pid = argv[1], .started = argv[2], .box_id = argv[3], .group = -1};
  const char *cwd = argv[4];
  int index = 5;
  while (index < argc && strcmp(argv[index], "--") != 0) index++;
  if (index + 1 >= argc) {
    fprintf(stderr, "bancada: no program after --\n");
    return 125;
  }
  join_cgroups(argv + 5, index - 5);
  open_box(&box);
  check_still_running(&box);
  environ = program_environment();
  return enter(&box, cwd, argv + index + 1, NULL, NULL);
}

/* Until fd 4 has something (or its end), or the box's pid 1 has ended (then there is no box to enter). */
static void wait_for_request(int init) {
  struct pollfd waits[2] = {{.fd = 4, .events = POLLIN}, {.fd = init, .events = POLLIN}};
  for (;;) {
    int ready = poll(waits, init >= 0 ? 2 : 1, -1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) fail(125, "waiting for the command");
    if (waits[0].revents) break;
    if (waits[1].revents) {
      fprintf(stderr, "bancada: the box is not running\n");
      exit(125);
    }
  }
  if (init >= 0) close(init);
}

/* Everything on fd 4 up to its end: the request of a warm entry. */
static char *read_request(size_t *size) {
  size_t capacity = 64 * 1024, used = 0;
  const size_t most = 64 * 1024 * 1024;
  char *text = malloc(capacity);
  if (!text) fail(125, "memory");
  for (;;) {
    if (used == capacity) {
      if (capacity >= most) {
        fprintf(stderr, "bancada: the command is too large\n");
        exit(125);
      }
      capacity *= 2;
      text = realloc(text, capacity);
      if (!text) fail(125, "memory");
    }
    ssize_t length = read(4, text + used, capacity - used);
    if (length < 0 && errno == EINTR) continue;
    if (length < 0) fail(125, "reading the command");
    if (length == 0) break;
    used += (size_t)length;
  }
  close(4);
  *size = used;
  return text;
}

/* The NUL-terminated strings of a request, in order; NULL-terminated. */
static char **split_request(char *text, size_t size, size_t *count) {
  size_t strings = 0;
  for (size_t at = 0; at < size; at++) strings += text[at] == '\0';
  if (size == 0 || text[size - 1] != '\0') strings = 0;
  char **fields = calloc(strings + 1, sizeof *fields);
  if (!fields) fail(125, "memory");
  for (size_t at = 0, field = 0; field < strings; field++) {
    fields[field] = text + at;
    at += strlen(text + at) + 1;
  }
  *count = strings;
  return fields;
}

/*
 * bancada-enter --warm <pid> <startTime> <boxId> <cgroup dir or ""> <cgroup.procs>...
 * A warm entry: joins the box's cgroups and opens its namespaces ahead of time, then waits for one command on fd 4:
 * "<cwd>\0<n>\0" then n "NAME=value\0" entries, then the program and its arguments, each "\0"-terminated, up to
 * the end of fd 4. The command starts in the given cgroup v2 folder (clone3) when there is one.
 */
static int enter_warm(int argc, char **argv) {
  struct box box = {.pid = argv[2], .started = argv[3], .box_id = argv[4], .group = -1};
  /* Dies with the service: an entry nobody can hand a command to must not stay. */
  if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) fail(125, "parent-death signal");
  /* It sits in the box's memory group while it waits: the box's own out-of-memory kills must not pick it. */
  static char oom_score[16] = "";
  int lowered = 0;
  int oom = open("/proc/self/oom_score_adj", O_RDWR | O_CLOEXEC);
  if (oom >= 0) {
    ssize_t length = read(oom, oom_score, sizeof oom_score - 1);
    oom_score[length > 0 ? length : 0] = '\0';
    oom_score[strcspn(oom_score, "\n")] = '\0';
    /* Where the machine refuses (some sandboxes do), the entry stays killable: the service then uses another. */
    lowered = length > 0 && write(oom, "-1000", 5) == 5;
    close(oom);
  }
  if (argv[5][0] != '\0') {
    box.group = open(argv[5], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (box.group < 0) fail(125, argv[5]);
  }
  join_cgroups(argv + 6, argc - 6);
  open_box(&box);
  /* The box's pid 1, watched while the entry waits: an entry never outlives the run of the box it holds open. */
  int init = (int)syscall(SYS_pidfd_open, atoi(box.pid), 0);
  check_still_running(&box);
  wait_for_request(init);
  size_t size = 0, count = 0;
  char *request = read_request(&size);
  char **fields = split_request(request, size, &count);
  long entries = count >= 2 ? strtol(fields[1], NULL, 10) : -1;
  if (entries < 0 || (size_t)entries + 3 > count) {
    fprintf(stderr, "bancada: no command for the warm entry\n");
    return 125;
  }
  /* It may have waited long: the box must still be the one whose files are open. */
  check_still_running(&box);
  char **environment = calloc((size_t)entries + 1, sizeof *environment);
  if (!environment) fail(125, "memory");
  memcpy(environment, fields + 2, (size_t)entries * sizeof *environment);
  return enter(&box, fields[0], fields + 2 + entries, environment, lowered ? oom_score : NULL);
}

/* The options before the mode's arguments; returns how many there were. */
static int read_options(int argc, char **argv) {
  int index = 1;
  for (; index < argc; index++) {
    if (strncmp(argv[index], "--seccomp=", 10) == 0)
      load_filter(argv[index] + 10);
    else if (strncmp(argv[index], "--keep-fd=", 10) == 0 && kept_count < (int)(sizeof kept / sizeof *kept)) {
      int fd = atoi(argv[index] + 10), at = kept_count++;
      if (fd < 3) {
        fprintf(stderr, "bancada: --keep-fd takes a descriptor above 2\n");
        exit(125);
      }
      /* Kept in ascending order, which close_inherited walks. */
      while (at > 0 && kept[at - 1] > fd) {
        kept[at] = kept[at - 1];
        at--;
      }
      kept[at] = fd;
    } else
      break;
  }
  return index - 1;
}

int main(int argc, char **argv) {
  int options = read_options(argc, argv);
  argc -= options;
  argv += options;
  if (argc >= 6 && strcmp(argv[1], "--warm") == 0) return enter_warm(argc, argv);
  if (argc >= 7) return enter_now(argc, argv);
  fprintf(stderr,
          "usage: bancada-enter [--seccomp=<file>] [--keep-fd=<n>]... <pid> <startTime> <boxId> <cwd> <cgroup.procs>... -- <program> [args...]\n"
          "       bancada-enter [--seccomp=<file>] [--keep-fd=<n>]... --warm <pid> <startTime> <boxId> <cgroup dir or \"\"> <cgroup.procs>...\n");
  return 125;
}
