import math


class AnimClip:
    """一段动画剪辑, 根据本地时间返回一组骨骼旋转标量"""
    def sample(self, time):
        raise NotImplementedError


class SineClip(AnimClip):
    """用正弦函数模拟循环动画, 不同状态频率/幅度不同"""
    def __init__(self, name, amp, freq):
        self.name = name
        self.amp = amp
        self.freq = freq

    def sample(self, time):
        return [
            self.amp * math.sin(time * self.freq),
            self.amp * math.cos(time * self.freq * 0.5),
            self.amp * 0.3 * math.sin(time * self.freq * 0.25)
        ]


class AnimState:
    """一个动画状态: 绑定剪辑与移动速度"""
    def __init__(self, name, clip, move_speed):
        self.name = name
        self.clip = clip
        self.move_speed = move_speed
        self.local_time = 0.0


class StateMachine:
    def __init__(self):
        self.states = {}
        self.transitions = []
        self.current = None
        self.old = None
        self.blend_t = 0.0
        self.blend_dur = 0.3

    def add_state(self, state):
        self.states[state.name] = state

    def add_transition(self, src, dst, condition):
        self.transitions.append((src, dst, condition))

    def update(self, dt, inputs):
        if self.current is None:
            self.current = list(self.states.values())[0]
        for src, dst, cond in self.transitions:
            if self.current.name == src and cond(inputs):
                self.old = self.current
                self.current = self.states[dst]
                self.blend_t = 0.0
                break
        self.blend_t = min(self.blend_t + dt, self.blend_dur)
        self.current.local_time += dt
        if self.old is not None and self.blend_t >= self.blend_dur:
            self.old = None
        if self.old is None:
            return 0.0
        mix = self.blend_t / self.blend_dur
        return mix

    def sample_pose(self, mix):
        new_pose = self.current.clip.sample(self.current.local_time)
        new_speed = self.current.move_speed
        if self.old is None or mix >= 1.0:
            return new_pose, new_speed
        old_pose = self.old.clip.sample(self.old.local_time)
        old_speed = self.old.move_speed
        pose = []
        for a, b in zip(old_pose, new_pose):
            pose.append(a * (1 - mix) + b * mix)
        speed = old_speed * (1 - mix) + new_speed * mix
        return pose, speed


def speed_input(keys):
    if 'run' in keys:
        return 2
    if 'walk' in keys:
        return 1
    return 0


def main():
    sm = StateMachine()
    sm.add_state(AnimState('idle', SineClip('idle', 0.1, 1.0), 0.0))
    sm.add_state(AnimState('walk', SineClip('walk', 0.2, 3.0), 1.4))
    sm.add_state(AnimState('run', SineClip('run', 0.35, 6.0), 4.2))

    sm.add_transition('idle', 'walk', lambda k: speed_input(k) == 1)
    sm.add_transition('walk', 'run', lambda k: speed_input(k) == 2)
    sm.add_transition('run', 'walk', lambda k: speed_input(k) == 1)
    sm.add_transition('walk', 'idle', lambda k: speed_input(k) == 0)
    sm.add_transition('run', 'idle', lambda k: speed_input(k) == 0)

    script = [(0.0, []), (0.5, ['walk']), (2.0, ['run']),
              (4.0, ['walk']), (5.5, []), (7.0, [])]
    idx = 0
    t = 0.0
    dt = 1.0 / 10.0
    while t <= 8.0:
        while idx < len(script) - 1 and t >= script[idx + 1][0]:
            idx += 1
        keys = script[idx][1]
        mix = sm.update(dt, keys)
        pose, speed = sm.sample_pose(mix)
        print('t=%.1f state=%-4s mix=%.2f speed=%.2f pose=%s'
              % (t, sm.current.name, mix, speed,
                 '[' + ' '.join('%.2f' % v for v in pose) + ']'))
        t += dt


if __name__ == '__main__':
    main()
